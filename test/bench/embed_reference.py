#!/usr/bin/env python3
"""onnxruntime itself on the texts bench:embed gives it: the reference the Node embedder is measured against.

Reads a job (JSON: model path, threads, batches of token ids) from the file named on the command
line, loads one session, then answers each line "run" on stdin with one timed pass over all
batches as a JSON line; "vectors N" returns the first N sentence vectors for a cross-check.
Batches arrive tokenized (tokenization is not part of the reference); each is padded to its
longest text, pooled as the job says (mean, or the [CLS] token) and normalized as the Node side does.
"""

import json
import sys
import time

import numpy as np
import onnxruntime as ort


def pad(batch):
    width = max(len(ids) for ids in batch)
    ids = np.zeros((len(batch), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for i, seq in enumerate(batch):
        ids[i, : len(seq)] = seq
        mask[i, : len(seq)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


def pooled(hidden, mask, pooling):
    if pooling == "cls":
        summed = hidden[:, 0]
    else:
        m = mask[..., None].astype(np.float32)
        summed = (hidden * m).sum(1)
    return summed / np.linalg.norm(summed, axis=1, keepdims=True)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        job = json.load(f)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = job["threads"]
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    session = ort.InferenceSession(job["model"], opts, providers=["CPUExecutionProvider"])
    feeds = [pad(batch) for batch in job["batches"]]
    pooling = job.get("pooling", "mean")
    texts = sum(len(batch) for batch in job["batches"])
    print(json.dumps({"ready": True, "onnxruntime": ort.__version__, "threads": job["threads"]}), flush=True)
    for line in sys.stdin:
        command = line.split()
        if not command:
            continue
        if command[0] == "run":
            started = time.perf_counter()
            for feed in feeds:
                hidden = session.run(["last_hidden_state"], feed)[0]
                pooled(hidden, feed["attention_mask"], pooling)
            seconds = time.perf_counter() - started
            print(json.dumps({"texts": texts, "seconds": seconds}), flush=True)
        elif command[0] == "vectors":
            want = int(command[1])
            out = []
            for feed in feeds:
                out.extend(pooled(session.run(["last_hidden_state"], feed)[0], feed["attention_mask"], pooling).tolist())
                if len(out) >= want:
                    break
            print(json.dumps({"vectors": out[:want]}), flush=True)


if __name__ == "__main__":
    main()
