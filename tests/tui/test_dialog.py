#!/usr/bin/env python3
"""The terminal dialog as a person sees it: tmux runs askhost-dialog-driver, sends keys, reads the screen.

usage: test_dialog.py CASE DRIVER        (exit 0 pass, 1 fail, 77 skip)
       test_dialog.py --list
       test_dialog.py --capture DRIVER   (print every view, for docs/terminal-dialog.md)
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

WAIT_SECONDS = 10
RULE80 = "─" * 80


class Failure(Exception):
    pass


def cells(text):
    """Terminal columns of a string (wide East Asian characters count two)."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


class Session:
    """One private tmux server running the driver on one ask."""

    count = 0

    def __init__(self, driver, questions, width=80, height=24, name="case", args=()):
        self.driver = driver
        self.dir = tempfile.mkdtemp(prefix="askhost-tui-")
        Session.count += 1  # a fresh server name each time: a killed server may linger briefly
        self.socket = "askhost-tui-%s-%d-%d" % (name, os.getpid(), Session.count)
        self.qfile = os.path.join(self.dir, "questions.json")
        self.out = os.path.join(self.dir, "out.json")
        self.rc = os.path.join(self.dir, "rc")
        self.pid = os.path.join(self.dir, "pid")
        self.stty = os.path.join(self.dir, "stty")
        with open(self.qfile, "w", encoding="utf-8") as f:
            json.dump({"questions": questions}, f, ensure_ascii=False)
        script = os.path.join(self.dir, "run.sh")
        with open(script, "w", encoding="utf-8") as f:
            f.write(
                "export LANG=C.UTF-8; unset LC_ALL LC_CTYPE\n"
                "printf 'BEFORE-MARKER\\n'\n"
                "'%s' '%s' '%s' --no-bell %s &\n"
                # Each file the test polls for appears whole (written, then renamed): seen as soon as
                # the shell made it, `rc` was once read empty (a cold ./dev test).
                "echo $! > '%s.new' && mv '%s.new' '%s'\n"
                "wait $!; status=$?\n"
                "stty -a > '%s' 2>&1\n"
                "echo $status > '%s.new' && mv '%s.new' '%s'\n"
                "exec sleep 600\n" % (driver, self.qfile, self.out, " ".join(args), self.pid, self.pid, self.pid,
                                      self.stty, self.rc, self.rc, self.rc)
            )
        env = dict(os.environ, LANG="C.UTF-8")
        env.pop("LC_ALL", None)
        env.pop("TMUX", None)
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), "sh " + script, env=env)

    def tmux(self, *args, env=None):
        r = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null"] + list(args),
                           capture_output=True, text=True, env=env, timeout=20)
        if r.returncode != 0:
            raise Failure("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
        return r.stdout

    def screen(self, escapes=False):
        args = ["capture-pane", "-p", "-t", "t"]
        if escapes:
            args.insert(2, "-e")
        return self.tmux(*args)

    def lines(self):
        return [l.rstrip() for l in self.screen().split("\n")]

    def wait_for(self, *texts, gone=False, seconds=WAIT_SECONDS):
        """Poll until every text is on screen (or, with gone, none is); fail with the screen."""
        deadline = time.monotonic() + seconds
        while True:
            s = self.screen()
            present = [t in s for t in texts]
            if (not gone and all(present)) or (gone and not any(present)):
                return s
            if time.monotonic() > deadline:
                missing = [t for t, p in zip(texts, present) if p == gone]
                raise Failure("%s %r after %ss; screen:\n%s" %
                              ("still there:" if gone else "never saw", missing, seconds, s))
            time.sleep(0.05)

    def wait_until(self, predicate, what, seconds=WAIT_SECONDS):
        deadline = time.monotonic() + seconds
        while True:
            s = self.screen()
            if predicate(s):
                return s
            if time.monotonic() > deadline:
                raise Failure("never saw %s; screen:\n%s" % (what, s))
            time.sleep(0.05)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text):
        for i in range(0, len(text), 500):
            self.tmux("send-keys", "-t", "t", "-l", text[i:i + 500])

    def outcome(self, seconds=WAIT_SECONDS):
        deadline = time.monotonic() + seconds
        while not os.path.exists(self.rc):
            if time.monotonic() > deadline:
                raise Failure("the driver did not finish; screen:\n%s" % self.screen())
            time.sleep(0.05)
        with open(self.rc) as f:
            rc = f.read().strip()
        if rc != "0":
            raise Failure("driver exit code %s; screen:\n%s" % (rc, self.screen()))
        # The terminal must be back in its normal mode: echo and line editing on.
        with open(self.stty) as f:
            modes = f.read().replace(";", " ").split()
        if "echo" not in modes or "icanon" not in modes:
            raise Failure("terminal left in raw mode: %s" % " ".join(modes))
        return self.read_json(self.out)

    def read_json(self, path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def driver_pid(self, seconds=WAIT_SECONDS):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if os.path.exists(self.pid):
                with open(self.pid) as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            time.sleep(0.05)
        raise Failure("no driver pid")

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        try:  # tmux leaves its socket behind
            os.unlink(os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.geteuid(), self.socket))
        except OSError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def check(cond, message, screen=None):
    if not cond:
        raise Failure(message + ("\nscreen:\n" + screen if screen is not None else ""))


def check_closed(s, summary):
    """After the dialog: the shell's screen is back and one line says what happened."""
    screen = s.wait_for(summary)
    check("BEFORE-MARKER" in screen, "the screen before the dialog is not back", screen)
    check("Esc to cancel" not in screen and "Esc cancel" not in screen, "the dialog is still drawn", screen)
    check(sum(1 for l in screen.split("\n") if l.startswith("? ")) == 1, "expected one summary line", screen)
    return screen


# ---------------------------------------------------------------- questions

DATABASE = {
    "question": "Which database should we use?",
    "header": "Database Selection",
    "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"},
        {"label": "MongoDB", "description": "Document store"},
    ],
}
SERVICE = {"question": "What should we name this service?", "header": "Service Setup"}
FEATURES = {
    "question": "Which features should we include?",
    "header": "Feature Selection",
    "multiSelect": True,
    "options": [
        {"label": "Authentication", "description": "OAuth2 + JWT"},
        {"label": "REST API", "description": "OpenAPI spec included"},
        {"label": "Admin Dashboard"},
    ],
}
THREE = [
    {"question": "Which database should we use?", "header": "Database",
     "options": [{"label": "PostgreSQL (Recommended)"}, {"label": "SQLite"}, {"label": "MongoDB"}]},
    {"question": "What should we name this service?", "header": "Service Name"},
    {"question": "Which features should we include?", "header": "Features", "multiSelect": True,
     "options": [{"label": "Authentication"}, {"label": "REST API"}, {"label": "Admin Dashboard"}]},
]
FRAMEWORKS = {
    "question": "Which framework should we use?",
    "header": "Framework Selection",
    "options": [{"label": l} for l in ["Express.js", "Fastify", "Hono", "Koa", "NestJS", "Next.js", "Remix"]],
}
SINGLE_HINT = "  ↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel"


def answer(out, i=0):
    check(out.get("answered") is True, "not answered: %r" % out)
    return out["answers"][i]


# ---------------------------------------------------------------- cases

def case_single_arrows(driver):
    s = Session(driver, [DATABASE], name="single")
    try:
        screen = s.wait_for("  > 1. PostgreSQL (Recommended)", "       Battle-tested relational DB",
                            "    4. Other (type your answer)", SINGLE_HINT, " Database Selection",
                            "  Which database should we use?")
        lines = s.lines()
        check(lines[0] == RULE80 and RULE80 in lines[1:], "rules missing", screen)
        s.keys("Down")
        s.wait_for("  > 2. SQLite", "    1. PostgreSQL (Recommended)")
        s.keys("Down", "Up", "Up", "Down")
        s.wait_for("  > 2. SQLite")
        s.keys("Enter")
        out = s.outcome()
        a = answer(out)
        check(a == {"question": "Which database should we use?", "answer": "SQLite", "selectedOption": "SQLite",
                    "wasCustom": False}, "answer %r" % a)
        check_closed(s, "? Which database should we use? → SQLite")
    finally:
        s.close()


def case_quick_select(driver):
    s = Session(driver, [DATABASE], name="quick")
    try:
        s.wait_for("  > 1. PostgreSQL (Recommended)")
        s.keys("9")  # past the options: refused, nothing happens
        s.keys("3")
        a = answer(s.outcome())
        check(a["answer"] == "MongoDB" and a["selectedOption"] == "MongoDB", "answer %r" % a)
        check_closed(s, "? Which database should we use? → MongoDB")
    finally:
        s.close()


def case_other_text(driver):
    s = Session(driver, [DATABASE], name="other")
    try:
        s.wait_for("    4. Other (type your answer)")
        s.keys("0")
        s.wait_for("  > 4. Other (type your answer)", "Enter to submit • Esc to go back")
        s.type("I want to use DynamoDB")
        s.wait_for("       I want to use DynamoDB█")
        s.keys("Enter")
        a = answer(s.outcome())
        check(a == {"question": "Which database should we use?", "answer": "I want to use DynamoDB",
                    "wasCustom": True}, "answer %r" % a)
        check_closed(s, "? Which database should we use? → I want to use DynamoDB")
    finally:
        s.close()


def case_preview_notes(driver):
    """The option under the cursor shows its preview under the list; n writes a note; both go back."""
    layout = {"question": "Which layout?", "header": "Layout", "options": [
        {"label": "Sidebar", "preview": "# Sidebar\n\n| nav | main |"},
        {"label": "Top bar", "preview": "<p>The <b>top</b> bar &amp; menu</p>"},
        {"label": "None"}]}
    s = Session(driver, [layout], name="preview")
    try:
        s.wait_for("  > 1. Sidebar", "  ── Preview ─", "  # Sidebar", "  | nav | main |")
        s.keys("Down")
        s.wait_for("  > 2. Top bar", "  The top bar & menu")
        s.keys("n")
        s.wait_for("  Note: █", "  Note for the agent • Enter or Esc to go back")
        s.type("keep it 2 columns")
        s.wait_for("  Note: keep it 2 columns█")
        s.keys("Enter")
        s.wait_for("  ↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel")
        s.keys("Enter")
        a = answer(s.outcome())
        check(a == {"question": "Which layout?", "answer": "Top bar", "selectedOption": "Top bar", "wasCustom": False,
                    "preview": "<p>The <b>top</b> bar &amp; menu</p>", "notes": "keep it 2 columns"}, "answer %r" % a)
    finally:
        s.close()


def case_free_text(driver):
    s = Session(driver, [SERVICE], name="free")
    try:
        s.wait_for(" Service Setup", "  What should we name this service?", "  > █",
                   "  Enter to submit • Esc to cancel")
        s.type("order-processorx")
        s.wait_for("  > order-processorx█")
        s.keys("BSpace")
        s.wait_for("  > order-processor█")
        s.keys("C-u")
        s.wait_for("  > █")
        s.type("order-processor")
        s.wait_for("  > order-processor█")
        s.keys("Enter")
        a = answer(s.outcome())
        check(a == {"question": "What should we name this service?", "answer": "order-processor",
                    "wasCustom": True}, "answer %r" % a)
        check_closed(s, "? What should we name this service? → order-processor")
    finally:
        s.close()


def case_multi_select(driver):
    s = Session(driver, [FEATURES], name="multi")
    try:
        s.wait_for("  > [ ] Authentication", "        OAuth2 + JWT", "    [ ] Other (type your answer)",
                   "  Space to toggle • Enter to submit • Esc to cancel")
        s.keys("Space", "Down", "Down", "Space", "Up")
        s.wait_for("    [x] Authentication", "  > [ ] REST API", "    [x] Admin Dashboard")
        s.keys("Enter")
        a = answer(s.outcome())
        check(a["answer"] == ["Authentication", "Admin Dashboard"] and a["wasCustom"] is False, "answer %r" % a)
        check_closed(s, "? Which features should we include? → Authentication, Admin Dashboard")
    finally:
        s.close()


def case_tabs_submit(driver):
    s = Session(driver, THREE, name="tabs")
    try:
        s.wait_for(" ← ■ Database  □ Service Name  □ Features  ✓ Submit →", "  > 1. PostgreSQL (Recommended)",
                   "  Tab/←→ switch • ↑↓ select • Enter confirm • Esc cancel")
        s.keys("Enter")  # answers Database, moves on to Service Name
        s.wait_for(" ← ■ Database  ■ Service Name  □ Features  ✓ Submit →", "  What should we name this service?",
                   "  > █")
        s.type("order-processor")
        s.keys("Enter")
        s.wait_for("  Which features should we include?", "  > [ ] Authentication")
        s.keys("Tab")  # to Submit with Features unanswered
        s.wait_for("  Review your answers", "  Database: PostgreSQL (Recommended)",
                   "  Service Name: order-processor", "  Unanswered: Features")
        s.keys("Enter")  # refused: not everything is answered
        time.sleep(0.3)
        s.wait_for("  Unanswered: Features")
        s.keys("Left")
        s.wait_for("  > [ ] Authentication")
        s.keys("Space", "Down", "Space", "Enter")
        s.wait_for("  Features: Authentication, REST API", "  Enter to submit • Tab/←→ switch • Esc cancel")
        check("Unanswered" not in s.screen(), "still lists unanswered questions", s.screen())
        s.keys("Enter")
        out = s.outcome()
        check([a["answer"] for a in out["answers"]] ==
              ["PostgreSQL (Recommended)", "order-processor", ["Authentication", "REST API"]], "answers %r" % out)
        check(out["answers"][1]["wasCustom"] is True, "service name not custom %r" % out)
        full = ("? 3 questions answered: Database=PostgreSQL (Recommended), Service Name=order-processor, "
                "Features=Authentication+REST API")
        check_closed(s, full[:78] + "…")  # one line, cut to the terminal's width
    finally:
        s.close()


def case_esc_cancel(driver):
    s = Session(driver, [DATABASE], name="esc")
    try:
        s.wait_for(SINGLE_HINT)
        s.keys("Down", "Escape")
        out = s.outcome()
        check(out.get("answered") is False and out.get("cancelled") is True and out.get("answers") == [],
              "outcome %r" % out)
        check_closed(s, "? Which database should we use? → cancelled")
    finally:
        s.close()


def case_esc_discard(driver):
    s = Session(driver, THREE, name="discard")
    try:
        s.wait_for(" ← ■ Database")
        s.keys("2")  # SQLite; on to Service Name
        s.wait_for("  > █")
        s.keys("Escape")
        s.wait_for("  Discard 1 answer? [y/N]")
        s.keys("n")
        s.wait_for("  Tab switch • Enter confirm • Esc cancel")
        check("Discard" not in s.screen(), "confirmation still shown", s.screen())
        s.keys("Escape")
        s.wait_for("  Discard 1 answer? [y/N]")
        s.keys("y")
        out = s.outcome()
        check(out.get("answered") is False and out.get("cancelled") is True, "outcome %r" % out)
        check_closed(s, "? 3 questions → cancelled")
    finally:
        s.close()


def case_scrolling(driver):
    s = Session(driver, [FRAMEWORKS], name="scroll")
    try:
        s.wait_for("  > 1. Express.js", "    5. NestJS", "    ↓ 3 more...")
        check("6. Next.js" not in s.screen(), "row 6 should be scrolled out", s.screen())
        s.keys("Down", "Down")
        s.wait_for("  > 3. Hono")
        s.keys("Down", "Down", "Down")
        s.wait_for("    ↑ 1 more...", "  > 6. Next.js", "    ↓ 2 more...")
        s.keys("0")
        s.wait_for("  > 8. Other (type your answer)", "    ↑ 3 more...")
        s.keys("Escape", "7")
        a = answer(s.outcome())
        check(a["answer"] == "Remix", "answer %r" % a)
    finally:
        s.close()


def case_escape_sequences(driver):
    q = {
        "question": "Clear?\u001b[2J\u001b[31mRED\u001b[0m done",
        "header": "\u001b]2;pwned\u0007Title",
        "options": [{"label": "\u001b[1mLoud", "description": "bell\u0007 here"}, {"label": "Quiet"}],
    }
    s = Session(driver, [q], name="esc-seq")
    try:
        screen = s.wait_for("^[[2J^[[31mRED^[[0m done", "^[[1mLoud", "^G")
        coloured = s.screen(escapes=True)
        check("\x1b[31m" not in coloured and "\x1b[41m" not in coloured, "agent colour reached the screen",
              coloured)
        title = s.tmux("display-message", "-p", "-t", "t", "#{pane_title}")
        check("pwned" not in title, "the agent set the terminal title: %r" % title)
        check(screen.split("\n")[0].rstrip() == RULE80, "screen was cleared or shifted", screen)
        s.keys("Enter")
        a = answer(s.outcome())
        check(a["answer"] == "\u001b[1mLoud", "answer %r" % a)  # the agent gets its own label back
        after = check_closed(s, "→ ^[[1mLoud")
        check("^[[2J" in after, "summary not sanitized", after)
    finally:
        s.close()


def case_wide_chars(driver):
    q = {
        "question": "どのデータベースを使いますか？🚀 " + "とても長い説明文がここに続きます。" * 4,
        "header": "データベース選択",
        "options": [
            {"label": "ポストグレス (Recommended)", "description": "実績のあるリレーショナルDB"},
            {"label": "SQLite 🗄", "description": "軽量"},
        ],
    }
    s = Session(driver, [q], name="wide")
    try:
        screen = s.wait_for(" データベース選択", "  > 1. ポストグレス (Recommended)", "       実績のあるリレーショナルDB",
                            "    2. SQLite 🗄", "    3. Other (type your answer)")
        for line in s.lines():
            check(cells(line) <= 80, "line wider than the terminal: %r" % line, screen)
        wrapped = [l for l in s.lines() if "とても長い" in l or "説明文" in l]
        check(len(wrapped) >= 2, "long CJK question did not wrap", screen)
        s.keys("Down", "Enter")
        a = answer(s.outcome())
        check(a["answer"] == "SQLite 🗄", "answer %r" % a)
        after = check_closed(s, "→ SQLite 🗄")
        check("? どのデータベースを使いますか？🚀" in after, "summary lost the question", after)
    finally:
        s.close()


def case_long_answer(driver):
    s = Session(driver, [SERVICE], name="long")
    try:
        s.wait_for("  > █")
        text = ("lorem ipsum " * 300)[:2847]
        s.type(text)
        s.keys("Enter")  # the pty keeps the order: Enter is read after the whole paste
        s.wait_for("  Answer is long (2,847 chars). Continue anyway? [Y/n]")
        s.keys("n")
        s.wait_for("Answer is long", gone=True)
        s.wait_for("  Enter to submit • Esc to cancel")
        s.keys("Enter")
        s.wait_for("  Answer is long (2,847 chars). Continue anyway? [Y/n]")
        s.keys("y")
        a = answer(s.outcome())
        check(a["answer"] == text and a["wasCustom"] is True, "long answer changed (%d chars)" % len(a["answer"]))
    finally:
        s.close()


def case_resize(driver):
    s = Session(driver, [DATABASE], name="resize")
    try:
        s.wait_for(SINGLE_HINT)
        s.tmux("resize-window", "-t", "t", "-x", "50", "-y", "20")
        screen = s.wait_until(lambda scr: scr.split("\n")[0].rstrip() == "─" * 50, "a 50-column rule")
        s.wait_for(NARROW_HINT + "\n", "  > 1. PostgreSQL (Recommended)")
        for line in s.lines():
            check(cells(line) <= 50, "line wider than 50 columns: %r" % line, screen)
        s.tmux("resize-window", "-t", "t", "-x", "30", "-y", "10")
        s.wait_until(lambda scr: scr.split("\n")[0].rstrip() == "─" * 30, "a 30-column rule")
        s.keys("Down")
        s.wait_for("  > 2. SQLite")
        s.tmux("resize-window", "-t", "t", "-x", "100", "-y", "30")
        s.wait_until(lambda scr: scr.split("\n")[0].rstrip() == RULE80, "an 80-column rule")
        s.wait_for(SINGLE_HINT, "  > 2. SQLite", "    4. Other (type your answer)")
        s.keys("Enter")
        check(answer(s.outcome())["answer"] == "SQLite", "wrong answer after resize")
    finally:
        s.close()


NARROW_HINT = "  ↑↓ move • 1-9 pick • Enter select • Esc cancel"


def hint_rows(lines, *words):
    """The rows that name any of the hint's keys."""
    return [l for l in lines if any(w in l for w in words)]


def case_sixty_columns(driver):
    """The seeds draw the whole dialog in 60 columns: every row fits and the hint is one row that
    still names every key (the seeds' words wrapped onto two rows here)."""
    s = Session(driver, [DATABASE], width=60, height=24, name="sixty")
    try:
        screen = s.wait_for("  > 1. PostgreSQL (Recommended)", "    4. Other (type your answer)", NARROW_HINT)
        lines = s.lines()
        check(lines[0] == "─" * 60, "not a 60-column rule", screen)
        for line in lines:
            check(cells(line) <= 60, "line wider than 60 columns: %r" % line, screen)
        rows = hint_rows(lines, "Esc", "Enter", "1-9", "↑↓")
        check(rows == [NARROW_HINT], "the hint is not one row naming every key: %r" % rows, screen)
        at = lines.index(NARROW_HINT)
        check(lines[at - 1] == "" and lines[at + 1] == "─" * 60, "the hint is not between a gap and the rule",
              screen)
        time.sleep(0.3)
        s.keys("Down")
        s.wait_for("  > 2. SQLite")
        time.sleep(0.3)
        s.keys("0")  # Other's input: its hint fits 60 columns in the seeds' words
        s.wait_for("  > 4. Other (type your answer)", "  Enter to submit • Esc to go back")
        time.sleep(0.3)
        s.keys("Escape")
        s.wait_for(NARROW_HINT)
        time.sleep(0.3)
        s.keys("3")
        check(answer(s.outcome())["answer"] == "MongoDB", "wrong answer at 60 columns")
    finally:
        s.close()
    # Several questions: the Submit tab's hint with a question unanswered is 60 columns too.
    s = Session(driver, THREE, width=60, height=24, name="sixty-tabs")
    try:
        s.wait_for("  Tab/←→ switch • ↑↓ select • Enter confirm • Esc cancel")
        time.sleep(0.3)
        s.keys("BTab")
        screen = s.wait_for("  Review your answers", "  Answer all first • Tab/←→ switch • Esc cancel")
        rows = hint_rows(s.lines(), "Esc", "Tab/←→")
        check(rows == ["  Answer all first • Tab/←→ switch • Esc cancel"], "hint rows %r" % rows, screen)
        time.sleep(0.3)
        s.keys("Escape")
        check(s.outcome().get("cancelled") is True, "not cancelled")
    finally:
        s.close()


def case_queue(driver):
    s = Session(driver, [DATABASE], name="queue", args=["--queue"])
    try:
        s.wait_for("  > 1. PostgreSQL (Recommended)")
        s.keys("2")  # the first ask closes and the queued one opens
        s.wait_for("  > 1. PostgreSQL (Recommended)", SINGLE_HINT)
        s.keys("3")
        first = s.outcome()
        second = s.read_json(s.out + ".2")
        check(answer(first)["answer"] == "SQLite", "first %r" % first)
        check(answer(second)["answer"] == "MongoDB", "second %r" % second)
        screen = s.wait_for("? Which database should we use? → SQLite\n? Which database should we use? → MongoDB")
        check("BEFORE-MARKER" in screen and "Esc to cancel" not in screen, "screen not restored", screen)
    finally:
        s.close()


def case_withdraw(driver):
    s = Session(driver, [DATABASE], name="withdraw", args=["--withdraw-after", "1500"])
    try:
        s.wait_for(SINGLE_HINT)
        out = s.outcome()
        check(out.get("answered") is False and out.get("reason") == "withdrawn", "outcome %r" % out)
        check_closed(s, "? Which database should we use? → withdrawn")
    finally:
        s.close()


def case_sigterm(driver):
    s = Session(driver, THREE, name="sigterm")
    try:
        s.wait_for(" ← ■ Database")
        s.keys("Enter")
        s.wait_for("  > █")
        os.kill(s.driver_pid(), 15)
        out = s.outcome()  # also checks the terminal is out of raw mode
        check(out.get("answered") is False and out.get("reason") == "signal", "outcome %r" % out)
        screen = s.wait_for("BEFORE-MARKER")
        check("Esc cancel" not in screen, "dialog still drawn", screen)
    finally:
        s.close()


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


# ---------------------------------------------------------------- captures for the docs

def capture_views(driver):
    def show(title, s):
        lines = [l.rstrip() for l in s.screen().split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        print("### " + title + "\n\n```\n" + "\n".join(lines) + "\n```\n")

    views = [
        ("Single question", [DATABASE], ["Down"], "  > 2. SQLite"),
        ("Many options (scrolling)", [FRAMEWORKS], ["Down", "Down"], "  > 3. Hono"),
        ("Text input (no options)", [SERVICE], ["-l", "order-processor"], "order-processor█"),
        ("Other", [DATABASE], ["0", "-l", "I want to use DynamoDB"], "DynamoDB█"),
        ("Multi-select", [FEATURES], ["Space", "Down", "Down", "Space", "Up"], "[x] Admin"),
        ("Several questions (tabs)", THREE, [], "Submit"),
        ("Submit tab", THREE, ["Enter", "-l", "order-processor", "Enter", "Tab"], "Unanswered"),
        ("Discard confirmation", THREE, ["Enter", "Escape"], "Discard"),
        ("Long answer warning", [SERVICE], ["-l", "x" * 2847, "Enter"], "Answer is long"),
    ]
    for title, qs, keys, expect in views:
        s = Session(driver, qs, name="capture")
        try:
            s.wait_for("─" * 80)
            i = 0
            while i < len(keys):
                if keys[i] == "-l":
                    s.type(keys[i + 1])
                    i += 2
                else:
                    s.keys(keys[i])
                    i += 1
            s.wait_for(expect)
            time.sleep(0.2)
            show(title, s)
        finally:
            s.close()


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        print("\n".join(sorted(CASES)))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    if shutil.which("tmux") is None:
        print("tmux not found: skipped")
        return 77
    driver = os.path.abspath(argv[2])
    if argv[1] == "--capture":
        capture_views(driver)
        return 0
    fn = CASES.get(argv[1])
    if fn is None:
        print("unknown case %r; cases: %s" % (argv[1], ", ".join(sorted(CASES))), file=sys.stderr)
        return 2
    def terminated(signum, frame):
        # meson's timeout: the case's finally closes its session (tmux server, folder) at once,
        # well within the half second before meson's SIGKILL.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Failure("terminated (SIGTERM: the test's time ran out?)")
    signal.signal(signal.SIGTERM, terminated)
    try:
        fn(driver)
    except Failure as e:
        print("FAIL %s: %s" % (argv[1], e))
        return 1
    print("ok %s" % argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
