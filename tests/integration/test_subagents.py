"""REQ-AUQ-005 where the agent does not mark the call itself: `askhost mcp` under Claude Code
finds the call's tool_use in Claude Code's transcripts (a sub-agent's own file, or a sidechain
line) and refuses it; the main conversation's call is asked. Claude Code's files are written
here as Claude Code 2.1.197 writes them (checked against the real CLI: tests/e2e/test_subagents.py)."""
import json
import os
import time

from harness import McpClient, Workdir, case, check, equal, strict, DATABASE_Q, main

SESSION = "5b4f2986-4415-48bb-849b-2d4d3ba9fc73"
REFUSAL = "Only the main conversation can ask the user questions"


def tool_use_line(tool_use_id, sidechain, agent_id=None):
    entry = {"parentUuid": "48f0d573", "isSidechain": sidechain, "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": tool_use_id, "name": "mcp__ask__ask_user_question",
             "input": {"questions": [strict(DATABASE_Q)]}}]}, "type": "assistant", "sessionId": SESSION}
    if agent_id:
        entry["agentId"] = agent_id
    return json.dumps(entry, separators=(",", ":")) + "\n"


def claude_home(wd):
    """HOME/.claude/projects/<folder>/ with the session's transcript; returns the folder."""
    folder = wd.file("home/.claude/projects/-tmp-project")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, SESSION + ".jsonl"), "w") as f:
        f.write(json.dumps({"type": "user", "isSidechain": False, "message": {"role": "user", "content": "Go."}}) + "\n")
    return folder


def mcp_under_claude(wd, **extra):
    env = wd.env(HOME=wd.file("home"), CLAUDE_CODE_SESSION_ID=SESSION, CLAUDECODE="1", **extra)
    mcp = McpClient(wd, env=env, args=["--print"])
    mcp.initialize(name="claude-code")
    return mcp


def text_of(res):
    return res["result"]["content"][0]["text"]


@case
def claude_subagent_transcript_refuses_the_call():
    """The tool_use is in <session>/subagents/agent-*.jsonl, written a moment after the call (as
    Claude Code does): the call is refused, and nothing is written to the pending file."""
    wd = Workdir()
    folder = claude_home(wd)
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01Sub", "progressToken": 2})
    time.sleep(0.3)  # Claude Code writes the line after it sent the call
    sub = os.path.join(folder, SESSION, "subagents")
    os.makedirs(sub)
    with open(os.path.join(sub, "agent-a216a1fc0ee3ca297.jsonl"), "w") as f:
        f.write(tool_use_line("toolu_01Sub", True, "a216a1fc0ee3ca297"))
    res = mcp.reply_to(rid)
    check(REFUSAL in text_of(res), f"refused: {res}")
    equal(res["result"]["isError"], True, "isError")
    check(not os.path.exists(wd.file(".askhost/pending-questions.json")), "nothing pending")
    mcp.close()


@case
def claude_subagent_before_the_session_file_is_refused():
    """Claude Code can flush a sub-agent's transcript before the session's own file: with only
    <session>/subagents/ there, the call is still looked for and refused (a CI run met this)."""
    wd = Workdir()
    folder = wd.file("home/.claude/projects/-tmp-project")
    sub = os.path.join(folder, SESSION, "subagents")
    os.makedirs(sub)
    transcript = os.path.join(sub, "agent-a2ce4c14954c856b3.jsonl")
    with open(transcript, "w") as f:
        f.write(json.dumps({"type": "user", "isSidechain": True, "message": {"role": "user", "content": "Ask."}}) + "\n")
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01Early"})
    time.sleep(0.3)
    with open(transcript, "a") as f:
        f.write(tool_use_line("toolu_01Early", True, "a2ce4c14954c856b3"))
    res = mcp.reply_to(rid)
    check(REFUSAL in text_of(res), f"refused: {res}")
    check(not os.path.exists(wd.file(".askhost/pending-questions.json")), "nothing pending")
    check(not os.path.exists(os.path.join(folder, SESSION + ".jsonl")), "the session's file was never written")
    mcp.close()


@case
def claude_sidechain_line_refuses_the_call():
    """Older Claude Code wrote a sub-agent's lines into the session's transcript, isSidechain true."""
    wd = Workdir()
    folder = claude_home(wd)
    with open(os.path.join(folder, SESSION + ".jsonl"), "a") as f:
        f.write(tool_use_line("toolu_01Side", True))
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01Side"})
    check(REFUSAL in text_of(mcp.reply_to(rid)), "refused")
    mcp.close()


@case
def claude_main_conversation_is_asked():
    """The main conversation's tool_use in the session's transcript: asked (here: the pending file)."""
    wd = Workdir()
    folder = claude_home(wd)
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01Main"})
    time.sleep(0.2)
    with open(os.path.join(folder, SESSION + ".jsonl"), "a") as f:
        f.write(tool_use_line("toolu_01Main", False))
    res = mcp.reply_to(rid)
    check(text_of(res).startswith("Questions pending. User input required."), f"asked: {res}")
    check(os.path.exists(wd.file(".askhost/pending-questions.json")), "pending")
    mcp.close()


@case
def claude_tool_use_never_written_is_asked():
    """Not found in any transcript (say the transcripts are off): asked after a short look, as
    before; and a session with no transcript at all is asked at once."""
    wd = Workdir()
    claude_home(wd)
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01None"})
    check(text_of(mcp.reply_to(rid, timeout=15)).startswith("Questions pending."), "asked")
    mcp.close()
    wd = Workdir()
    os.makedirs(wd.file("home"), exist_ok=True)
    mcp = mcp_under_claude(wd)
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"claudecode/toolUseId": "toolu_01None"})
    check(text_of(mcp.reply_to(rid, timeout=2)).startswith("Questions pending."), "asked at once")
    mcp.close()


if __name__ == "__main__":
    raise SystemExit(main())
