"""askhost hook as Claude Code's PreCompact hook: the session's questions and answers, read from
the transcript the hook input names, printed as the compaction's instructions (Claude Code adds
a PreCompact hook's stdout to them). The real Claude Code: tests/e2e/test_compaction.py."""
import json
import subprocess

from harness import ASKHOST, Workdir, case, check, equal, main

DB_Q = "Which database should we use?"


def line(obj):
    return json.dumps(obj, separators=(",", ":")) + "\n"


def precompact(wd, transcript_lines):
    path = wd.file("transcript.jsonl")
    with open(path, "w") as f:
        f.writelines(transcript_lines)
    hook = {"session_id": "s1", "transcript_path": path, "cwd": wd.path, "hook_event_name": "PreCompact",
            "trigger": "manual", "custom_instructions": ""}
    return subprocess.run([ASKHOST, "hook"], input=json.dumps(hook).encode(), env=wd.env(), capture_output=True,
                          timeout=30)


@case
def precompact_prints_the_answers():
    wd = Workdir()
    ask = {"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "toolu_1",
           "name": "AskUserQuestion", "input": {"questions": [{"question": DB_Q, "header": "Database", "options": [
               {"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}]}]}}]}}
    result = {"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "toolu_1",
              "content": "answered"}]}, "toolUseResult": {"answers": {DB_Q: "PostgreSQL (Recommended)"}}}
    r = precompact(wd, [line(ask), line(result)])
    equal(r.returncode, 0, r.stderr.decode())
    out = r.stdout.decode()
    check(out.startswith("Keep in the summary what the user decided when asked"), out)
    check(out.rstrip().endswith(f'User was asked "{DB_Q}" and chose PostgreSQL.'), out)


@case
def precompact_with_nothing_asked_prints_nothing():
    wd = Workdir()
    r = precompact(wd, [line({"type": "user", "message": {"content": "hello"}})])
    equal((r.returncode, r.stdout), (0, b""), "nothing: Claude's own compaction")
    hook = {"hook_event_name": "PreCompact", "transcript_path": wd.file("missing.jsonl")}
    r = subprocess.run([ASKHOST, "hook"], input=json.dumps(hook).encode(), env=wd.env(), capture_output=True,
                       timeout=30)
    equal((r.returncode, r.stdout), (0, b""), "no transcript: nothing, and no failure")


if __name__ == "__main__":
    raise SystemExit(main())
