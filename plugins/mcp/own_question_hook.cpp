// The agents' own question tools asked through askhost: Gemini CLI's ask_user (BeforeTool) and
// Codex's request_user_input (PreToolUse). Each is asked in the askhost whose workspace holds the
// agent's folder; with none, in a host of our own when something could show it (a tmux popup over
// the agent's pane, askhost web, `own-questions = always` in the settings file); else the hook
// prints nothing at once and the agent's own dialog shows the question, as if askhost were not there.
#include "own_question_hook.hpp"

#include <cstdlib>
#include <string>

#include <memory>

#include "common/agent_watch.hpp"
#include "core/fd_io.hpp"
#include "service/ask_and_wait.hpp"

namespace askhost::mcp {

namespace {

void note_gemini(std::string_view m) { write_all(2, "askhost gemini-hook: " + std::string(m) + "\n"); }
void note_codex(std::string_view m) { write_all(2, "askhost codex-hook: " + std::string(m) + "\n"); }

int ask_own(const OwnRequest& request) {
    const bool gemini = request.tool == OwnTool::GeminiAskUser;
    void (*note)(std::string_view) = gemini ? note_gemini : note_codex;
    if (!request.why.empty()) note(request.why);
    if (request.kind == OwnRequest::Kind::Reply) write_all(1, request.reply);
    if (request.kind != OwnRequest::Kind::Question) return 0;
    const OwnQuestions setting = own_questions_setting(note);
    if (setting == OwnQuestions::Never) return 0;  // the person chose the agent's own dialog

    const auto outcome = ask_and_wait(
        request.ask, {.service = {.who = gemini ? "askhost gemini-hook" : "askhost codex-hook",
                                  .kind = "hook",
                                  .socket_hint = socket_hint_from_env(true),
                                  .alone = setting == OwnQuestions::Always ? Alone::Seek : Alone::SeekIfShown,
                                  .log = note},
                      // The hook's time limit, or the agent ending it: nothing printed, the agent decides. The
                      // agent gone (its terminal closed): the question is withdrawn everywhere.
                      .watch = [gemini](boost::asio::io_context& io, EndWait end) {
                          return std::make_shared<AgentWatch>(io, gemini ? "Gemini CLI is gone" : "Codex is gone",
                                                              std::move(end));
                      }});
    if (outcome) write_all(1, own_reply(request, *outcome));
    return 0;
}

}  // namespace

int run_gemini_before_tool(const rapidjson::Value& input) { return ask_own(read_gemini_request(input)); }

int run_codex_pre_tool_use(const rapidjson::Value& input) { return ask_own(read_codex_request(input)); }

}  // namespace askhost::mcp
