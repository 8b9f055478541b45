"""Minimal re-implementation of RUC-NLPIR/EnvScaler 87e6673 sft/step1_process_messages_by_tool_template.py
(process_hf_data, keep_think_history, main) with the turn structure of the Qwen3 chat template it
applies (Qwen/Qwen3-4B tokenizer: the tools go into one system turn, consecutive tool results are
merged into one user turn of <tool_response> blocks, tool calls are rendered as <tool_call> text).
Not EnvScaler itself: transformers and the tokenizer cannot be installed here.

usage: python3 envscaler_sft_harness.py <sft_traj.json>  -> prints the converted items
"""
import json
import sys
from copy import deepcopy


def process_hf_data(raw_data):
    return [deepcopy({
        "traj_type": item["traj_type"],
        "task_info": item["task_info"],
        "tools": json.loads(item["tools"]),
        "messages": json.loads(item["messages"]),
        "user_messages": json.loads(item["user_messages"]),
        "steps": item["steps"],
    }) for item in raw_data]


def qwen3_turns(tools, messages):
    """apply_chat_template + text_to_messages: the (role, content) turns that come back."""
    turns = []
    for i, m in enumerate(messages):
        if m["role"] == "system":
            turns.append({"role": "system", "content": m["content"] + ("\n\n# Tools\n" + json.dumps(tools) if tools else "")})
        elif m["role"] == "user":
            turns.append({"role": "user", "content": m["content"]})
        elif m["role"] == "assistant":
            calls = "".join("\n<tool_call>\n" + json.dumps({"name": c["function"]["name"], "arguments": c["function"]["arguments"]}) + "\n</tool_call>" for c in m.get("tool_calls") or [])
            turns.append({"role": "assistant", "content": (m["content"] or "") + calls})
        elif m["role"] == "tool":
            block = "<tool_response>\n" + m["content"] + "\n</tool_response>"
            if i > 0 and messages[i - 1]["role"] == "tool":
                turns[-1]["content"] += "\n" + block
            else:
                turns.append({"role": "user", "content": block})
    return turns


def keep_think_history(messages_raw, messages_convert):
    assert len(messages_raw) == len(messages_convert)
    out = []
    for j, m in enumerate(messages_convert):
        if m["role"] in ("user", "system"):
            out.append(deepcopy(m))
        else:
            reasoning = messages_raw[j]["reasoning_content"].strip()
            out.append({"role": "assistant", "content": f"<think>\n{reasoning}\n</think>\n\n{m['content'].strip()}"})
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        data = process_hf_data(json.load(f))
    out = []
    for item in data:
        new_item = deepcopy(item)
        new_item["messages"] = keep_think_history(item["messages"], qwen3_turns(item["tools"], item["messages"]))
        out.append(new_item)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
