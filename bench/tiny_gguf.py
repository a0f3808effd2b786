"""Write a tiny random-weight llama-architecture GGUF that llama.cpp's server can load.

The prompt-cache bench needs a model only to make the server tokenize, evaluate
and cache prompts; what it says does not matter. No weights can be downloaded
here, so this script makes one: a 2-layer llama with 64-wide embeddings and
seeded random weights (a few MB), a byte-level BPE tokenizer ("gpt2" model,
"gpt-2" pre-tokenizer: 256 byte tokens, merges learnt on a corpus, and the
ChatML special tokens) and a ChatML chat template that renders tools and
`<tool_call>` JSON, so `--jinja` and `/v1/chat/completions` with `tools` work.

The merges are learnt here, on the text given with `--corpus` (plus a built-in
paragraph), so the token counts are in the range of a real tokenizer's (about
4 characters a token on English) rather than one token per byte. Same inputs,
same file: the seed and the corpus fix every byte.

Needs `gguf` and `numpy` (run it with the bench's llama venv, not the project's):

    python bench/tiny_gguf.py OUT.gguf [--corpus FILE] [--merges 3000]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import re
import sys
from pathlib import Path

import numpy as np

try:
    import gguf
except ImportError:  # pragma: no cover - told to the person running it
    sys.exit("tiny_gguf.py needs the `gguf` package: pip install gguf numpy")

N_EMBD = 64
N_LAYER = 2
N_HEAD = 4
N_FF = 128
N_CTX_TRAIN = 131_072
SEED = 20260307

SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")

BUILTIN_CORPUS = """\
The quick brown fox jumps over the lazy dog. People talk about their plans for
the day, the meetings they have in the afternoon, the trains they need to catch
and the friends they will call in the evening. What time is it in Tokyo? Remind
me tomorrow at nine to send the report. I am going for a run, back in an hour.
"""

# ChatML with tools in the system turn and Hermes-style <tool_call> JSON for calls. Every
# byte of output is an explicit string, so no block tag's whitespace handling can eat one.
CHAT_TEMPLATE = r"""
{%- set ns = namespace(system='') -%}
{%- if messages and messages[0].role == 'system' -%}
  {%- set ns.system = messages[0].content -%}
{%- endif -%}
{%- if ns.system or tools -%}
  {{- '<|im_start|>system\n' + ns.system -}}
  {%- if tools -%}
    {{- '\n\n## Functions\nTo call a function, answer with one <tool_call></tool_call> block '
        + 'per call, each holding a JSON object with "name" and "arguments":\n<tool_call>\n'
        + '{"name": "function_name", "arguments": {"argument": "value"}}\n</tool_call>\n'
        + 'The functions:' -}}
    {%- for tool in tools -%}
      {{- '\n' + (tool | tojson) -}}
    {%- endfor -%}
  {%- endif -%}
  {{- '<|im_end|>\n' -}}
{%- endif -%}
{%- for message in messages -%}
  {%- if message.role == 'assistant' -%}
    {{- '<|im_start|>assistant\n' -}}
    {%- if message.content -%}
      {{- message.content -}}
    {%- endif -%}
    {%- if message.tool_calls -%}
      {%- for call in message.tool_calls -%}
        {%- set fn = call.function if call.function is defined else call -%}
        {{- '\n<tool_call>\n{"name": "' + fn.name + '", "arguments": ' -}}
        {%- if fn.arguments is string -%}
          {{- fn.arguments -}}
        {%- else -%}
          {{- fn.arguments | tojson -}}
        {%- endif -%}
        {{- '}\n</tool_call>' -}}
      {%- endfor -%}
    {%- endif -%}
    {{- '<|im_end|>\n' -}}
  {%- elif message.role == 'tool' -%}
    {{- '<|im_start|>tool\n' + message.content + '<|im_end|>\n' -}}
  {%- elif message.role != 'system' or not loop.first -%}
    {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}
  {%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
  {{- '<|im_start|>assistant\n' -}}
{%- endif -%}
"""

# GPT-2's pre-tokenizer, in Python's `re` (letters are [^\W\d_], digits \d).
_PRE_SPLIT = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?(?:[^\w\s]|_)+|\s+(?!\S)|\s+")


def byte_symbols() -> list[str]:
    """The printable stand-in for each byte, as byte-level BPE vocabularies spell them."""
    visible = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    symbol = {b: chr(b) for b in visible}
    spare = 0
    for b in range(256):
        if b not in symbol:
            symbol[b] = chr(256 + spare)
            spare += 1
    return [symbol[b] for b in range(256)]


def learn_merges(text: str, count: int) -> list[tuple[str, str]]:
    """Byte-pair merges, most frequent pair first, within pre-tokenized words."""
    symbols = byte_symbols()
    words = collections.Counter(_PRE_SPLIT.findall(text))
    pieces = {word: [symbols[b] for b in word.encode("utf-8")] for word in words}
    merges: list[tuple[str, str]] = []
    for _ in range(count):
        pairs: collections.Counter[tuple[str, str]] = collections.Counter()
        for word, parts in pieces.items():
            for pair in itertools.pairwise(parts):
                pairs[pair] += words[word]
        if not pairs:
            break
        # Most frequent; ties broken by the pair itself so the result never depends on order.
        best = min(pairs.items(), key=lambda item: (-item[1], item[0]))[0]
        if pairs[best] < 2:
            break
        merges.append(best)
        joined = best[0] + best[1]
        for word, parts in pieces.items():
            if len(parts) < 2:
                continue
            out: list[str] = []
            i = 0
            while i < len(parts):
                if i + 1 < len(parts) and (parts[i], parts[i + 1]) == best:
                    out.append(joined)
                    i += 2
                else:
                    out.append(parts[i])
                    i += 1
            pieces[word] = out
    return merges


def replyable(tokens: list[str], first_special: int) -> list[bool]:
    """Which tokens the model may say: printable text and newlines, and <|im_end|>."""
    byte_of = {symbol: b for b, symbol in enumerate(byte_symbols())}
    allowed: list[bool] = []
    for index, piece in enumerate(tokens):
        if index >= first_special:
            allowed.append(piece == "<|im_end|>")
            continue
        raw = bytes(byte_of[symbol] for symbol in piece)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            allowed.append(False)
            continue
        allowed.append(all(ch == "\n" or ch.isprintable() for ch in text))
    return allowed


def write_model(out: Path, corpus: str, merge_count: int) -> None:
    merges = learn_merges(corpus, merge_count)
    tokens = byte_symbols()
    seen = set(tokens)
    for left, right in merges:
        if left + right not in seen:
            tokens.append(left + right)
            seen.add(left + right)
    first_special = len(tokens)
    tokens.extend(SPECIALS)
    types = [gguf.TokenType.NORMAL] * first_special + [gguf.TokenType.CONTROL] * len(SPECIALS)
    n_vocab = len(tokens)

    rng = np.random.default_rng(SEED)

    def weight(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    head_dim = N_EMBD // N_HEAD
    tmp = out.with_name(out.name + ".part")  # renamed when whole: never half a file
    writer = gguf.GGUFWriter(str(tmp), "llama")
    writer.add_name("clockbot-bench-tiny")
    writer.add_context_length(N_CTX_TRAIN)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD)
    writer.add_rope_dimension_count(head_dim)
    writer.add_rope_freq_base(10_000.0)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("gpt-2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges([f"{left} {right}" for left, right in merges])
    writer.add_bos_token_id(first_special)  # <|endoftext|>
    writer.add_eos_token_id(first_special + 2)  # <|im_end|>
    writer.add_eot_token_id(first_special + 2)
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHAT_TEMPLATE)

    # Replies must be text a chat store keeps (no NUL, no stray control or half-UTF-8
    # bytes). Every embedding carries 1.0 in dimension 0, which the small random layers
    # barely move, so after the final norm that dimension is large and positive; output
    # rows give it +5 for allowed tokens and -5 for the rest: the banned ones never win.
    embeddings = weight(n_vocab, N_EMBD)
    embeddings[:, 0] = 1.0
    output = weight(n_vocab, N_EMBD)
    output[:, 0] = [5.0 if allowed else -5.0 for allowed in replyable(tokens, first_special)]
    writer.add_tensor("token_embd.weight", embeddings)
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    writer.add_tensor("output.weight", output)
    for layer in range(N_LAYER):
        blk = f"blk.{layer}"
        writer.add_tensor(f"{blk}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_q.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(f"{blk}.attn_k.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(f"{blk}.attn_v.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(f"{blk}.attn_output.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(f"{blk}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(f"{blk}.ffn_gate.weight", weight(N_FF, N_EMBD))
        writer.add_tensor(f"{blk}.ffn_up.weight", weight(N_FF, N_EMBD))
        writer.add_tensor(f"{blk}.ffn_down.weight", weight(N_EMBD, N_FF))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    tmp.replace(out)
    print(f"wrote {out}: vocab {n_vocab} ({len(merges)} merges), {N_LAYER} layers x {N_EMBD}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, help="text to learn the BPE merges on")
    parser.add_argument("--merges", type=int, default=3_000)
    args = parser.parse_args()
    corpus = BUILTIN_CORPUS
    if args.corpus is not None:
        corpus += args.corpus.read_text(encoding="utf-8")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_model(args.out, corpus, args.merges)


if __name__ == "__main__":
    main()
