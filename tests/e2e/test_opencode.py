"""OpenCode's own `question` tool through askhost's OpenCode plugin (plugins/opencode): the
plugin's unit tests (opencode_plugin_unit.ts, run by the Bun inside OpenCode's binary), and the real
OpenCode in its terminal UI (tmux), offline against the mock model API (an OpenAI-compatible
provider), with `askhost opencode install` in its user-wide config: the model asks two questions
(one multi-select); answered in an editor of a standing host, or first in OpenCode's own dialog,
which withdraws the editor's copy. The assertions are on what the model API received."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, ROOT, Editor, Tmux, Workdir, case, equal  # noqa: E402
from e2e_common import TIMEOUT, Mock, agent_bin, agent_env, run_cases  # noqa: E402

PLUGIN = os.path.join(ROOT, "plugins", "opencode", "plugin", "askhost.ts")
DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
QUESTIONS = [
    {"question": DB_Q, "header": "Database", "options": [
        {"label": "PostgreSQL", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"question": FEAT_Q, "header": "Features", "multiple": True, "options": [
        {"label": "Authentication", "description": "OAuth2 + JWT"},
        {"label": "REST API", "description": "OpenAPI spec included"},
        {"label": "Admin Dashboard", "description": "A web UI"}]},
]
TAIL = " You can now continue with the user's answers in mind."


def opencode():
    return agent_bin("opencode-ai", "opencode")


def unit_case(name):
    def run():
        wd = Workdir()
        tmp = wd.file("tmp")
        os.makedirs(tmp)
        r = subprocess.run([opencode(), os.path.join(HERE, "opencode_plugin_unit.ts"), PLUGIN, name],
                           env=dict(wd.env(), BUN_BE_BUN="1", TMPDIR=tmp), capture_output=True, timeout=TIMEOUT)
        equal(r.returncode, 0, "unit case %s: %s%s" % (name, r.stdout.decode(), r.stderr.decode()[-2000:]))
    run.__name__ = "plugin_" + name
    return case(run)


for _name in ("answers_go_to_opencodes_reply", "a_decline_is_opencodes_reject",
              "nothing_printed_leaves_opencodes_dialog", "answered_in_opencode_ends_askhosts_copy",
              "dismissed_in_opencode_ends_askhosts_copy", "one_ask_for_two_copies_of_the_plugin",
              "other_events_and_no_askhost_are_harmless"):
    unit_case(_name)


class OpencodeTui:
    """OpenCode's terminal UI in a tmux pane, in the project folder, its model the mock's (an
    OpenAI-compatible provider), askhost's plugin installed user-wide by `askhost opencode install`."""

    def __init__(self, wd, mock):
        self.mock = mock
        self.project = os.path.realpath(wd.file("project"))
        os.makedirs(self.project)
        env = agent_env(wd, mock, OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                        OPENCODE_DISABLE_LSP_DOWNLOAD="1", OPENCODE_DISABLE_SHARE="1")
        config = os.path.join(env["XDG_CONFIG_HOME"], "opencode")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "opencode.json"), "w") as f:
            json.dump({"$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
                       "model": "mock/mock-model",
                       "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                                             "options": {"baseURL": f"http://127.0.0.1:{mock.port}/v1",
                                                         "apiKey": "dummy"},
                                             "models": {"mock-model": {"name": "Mock Model"}}}}}, f)
        # OpenCode adds its plugin package to every config folder at start unless the lockfile has
        # it; offline that install would wait minutes. askhost's plugin needs none of it.
        os.makedirs(os.path.join(config, "node_modules"))
        with open(os.path.join(config, "package-lock.json"), "w") as f:
            json.dump({"packages": {"": {"dependencies": {"@opencode-ai/plugin": "1.18.33"}}}}, f)
        out = subprocess.run([ASKHOST, "opencode", "install"], env=env, capture_output=True, text=True)
        equal(out.returncode, 0, "askhost opencode install: " + out.stderr)
        keep = ("HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "NO_PROXY", "no_proxy",
                "OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_MODELS_FETCH", "OPENCODE_DISABLE_LSP_DOWNLOAD",
                "OPENCODE_DISABLE_SHARE")
        self.t = Tmux(wd, ["sh", "-c", 'cd "$0" && exec env "$@"', self.project]
                      + ["%s=%s" % (k, env[k]) for k in keep] + [opencode()], width=110, height=40)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.t.kill()
        self.mock.stop()

    def prompt(self, text):
        self.t.wait_screen("Ask anything", timeout=TIMEOUT)
        self.t.text(text)
        self.t.keys("Enter")


def standing_editor(wd, project):
    ed = Editor(wd)
    ed.initialize(name="e2e-editor", folders=[project])
    return ed


@case
def opencode_tui_questions_answered_in_the_editor():
    """Two questions, one multi-select: the editor gets both intact, its answer reaches the model as
    OpenCode's own result, and OpenCode's dialog goes."""
    wd = Workdir()
    mock = Mock(wd, ["question"], QUESTIONS)
    with OpencodeTui(wd, mock) as oc:
        ed = standing_editor(wd, oc.project)
        oc.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("opencode", "plugin"), "named as OpenCode's, through the plugin")
        equal([(q["question"], q.get("header"), q.get("multiSelect", False), [o["label"] for o in q["options"]])
               for q in p["questions"]],
              [(q["question"], q["header"], q.get("multiple", False), [o["label"] for o in q["options"]])
               for q in QUESTIONS], "both questions intact")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": FEAT_Q, "answer": ["Authentication", "REST API"], "wasCustom": False}]})
        equal(mock.tool_result()["text"],
              f'User has answered your questions: "{DB_Q}"="SQLite", "{FEAT_Q}"="Authentication, REST API".' + TAIL,
              "what the model read")
        oc.t.wait_screen("All set.", timeout=TIMEOUT)
        mock.check_offline()


@case
def opencode_tui_answered_in_its_own_dialog_withdraws_the_editors():
    """OpenCode's own dialog stays usable beside askhost's: answered there first, the editor's copy
    is withdrawn, and the model reads OpenCode's answer."""
    wd = Workdir()
    mock = Mock(wd, ["question"], QUESTIONS)
    with OpencodeTui(wd, mock) as oc:
        ed = standing_editor(wd, oc.project)
        oc.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        # OpenCode's dialog: Enter takes PostgreSQL, Enter ticks Authentication, Tab to its review,
        # Enter sends.
        oc.t.wait_screen("1. PostgreSQL", timeout=TIMEOUT)
        oc.t.keys("Enter")
        oc.t.wait_screen("[ ] Authentication", timeout=TIMEOUT)
        oc.t.keys("Enter")
        oc.t.wait_screen("[✓] Authentication", timeout=TIMEOUT)
        oc.t.keys("Tab")
        oc.t.wait_screen("Review", timeout=TIMEOUT)
        oc.t.keys("Enter")
        cancel = ed.method("$/cancelRequest", timeout=TIMEOUT)
        equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")
        equal(mock.tool_result()["text"],
              f'User has answered your questions: "{DB_Q}"="PostgreSQL", "{FEAT_Q}"="Authentication".' + TAIL,
              "what the model read")


if __name__ == "__main__":
    sys.exit(run_cases())
