#include "ask_and_wait.hpp"

#include <cstdlib>
#include <utility>

#include <boost/asio/post.hpp>

#include "transport/stdio.hpp"

namespace askhost {

std::function<std::string()> socket_hint_from_env(bool ancestors) {
    const char* set = std::getenv("ASKHOST_SOCKET");
    return [env = std::string(set ? set : ""), ancestors] {
        return env.empty() && ancestors ? socket_from_ancestors() : env;
    };
}

std::optional<Outcome> ask_and_wait(Ask ask, WaitOptions options) {
    if (options.service.cwd.empty()) options.service.cwd = ask.cwd;
    void (*log)(std::string_view) = options.service.log;
    boost::asio::io_context io;
    AskService service(io, std::move(options.service));
    std::optional<Outcome> outcome;
    bool done = false;
    // The withdrawal or the last state reaches its peer before the process ends (2 s at most);
    // what clients of our own host are still owed (ask/state) goes out first.
    auto finish_writing = [&] { stop_when_written(io, [&] { return service.owed(); }); };
    AskService::Asking asking = service.ask(std::move(ask), [&](const Outcome& o) {
        done = true;
        outcome = o;
        boost::asio::post(io, [&] { finish_writing(); });
    });
    if (asking.where == AskService::Asking::Where::Nowhere) return std::nullopt;
    EndWait end = [&](const std::string& why) {
        if (done) return;
        done = true;
        asking.withdraw();  // closed in the editor, the popup and the page at once
        if (!why.empty() && log) log(why);
        finish_writing();
    };
    const std::shared_ptr<void> watching = options.watch ? options.watch(io, end) : nullptr;
    io.run();
    service.restore_terminal();
    return outcome;
}

}  // namespace askhost
