// Shows one ask in the terminal dialog and writes its outcome: the tmux tests drive this.
// usage: askhost-dialog-driver QUESTIONS.json OUT.json [--tty PATH] [--no-bell] [--queue]
//        [--withdraw-after MS]
// --queue shows the ask a second time while the first is open (its outcome goes to OUT.json.2);
// --withdraw-after withdraws the first ask after MS milliseconds (OUT.json then says why).
#include <chrono>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/model/outcome.hpp"
#include "core/model/question.hpp"
#include "frontends/tui/terminal_dialog.hpp"

namespace {

int usage() {
    std::cerr << "usage: askhost-dialog-driver QUESTIONS.json OUT.json [--tty PATH] [--no-bell] [--queue]"
                 " [--withdraw-after MS]\n";
    return 2;
}

// Written beside the target and renamed, so a test polling for the file never reads half of it.
bool write_outcome(const std::string& path, const askhost::Outcome& outcome) {
    rapidjson::StringBuffer buf;
    askhost::JsonWriter w(buf);
    w.StartObject();
    askhost::write_native_result(w, outcome);
    w.EndObject();
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << buf.GetString() << "\n";
        if (!out) return false;
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "");
    if (argc < 3) return usage();
    const std::string questions_path = argv[1];
    const std::string out_path = argv[2];
    askhost::TerminalDialogOptions options;
    bool queue = false;
    long withdraw_after_ms = -1;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--tty" && i + 1 < argc) options.tty_path = argv[++i];
        else if (arg == "--no-bell") options.bell = false;
        else if (arg == "--queue") queue = true;
        else if (arg == "--withdraw-after" && i + 1 < argc) withdraw_after_ms = std::atol(argv[++i]);
        else return usage();
    }
    // on_active must come in pairs, true then false: a mismatch is reported in the outcome file.
    int active_depth = 0;
    bool active_ok = true;
    options.on_active = [&](bool active) {
        active_depth += active ? 1 : -1;
        if (active_depth < 0 || active_depth > 1) active_ok = false;
    };

    std::ifstream in(questions_path, std::ios::binary);
    if (!in) {
        std::cerr << "askhost-dialog-driver: cannot read " << questions_path << "\n";
        return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = askhost::parse_ask_input(text.str(), askhost::Profile::Lenient);
    if (auto* refusal = std::get_if<askhost::Refusal>(&parsed)) {
        std::cerr << "askhost-dialog-driver: " << refusal->message << "\n";
        return 2;
    }
    auto& input = std::get<askhost::AskInput>(parsed);

    boost::asio::io_context io;
    askhost::TerminalDialog dialog(io, options);
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    boost::asio::steady_timer withdraw_timer(io);
    std::optional<askhost::Outcome> result, second;
    int pending = queue ? 2 : 1;
    auto one_done = [&] {
        if (--pending == 0) {
            signals.cancel();
            withdraw_timer.cancel();
        }
    };

    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (ec) return;
        dialog.restore_terminal();
        result = askhost::Outcome::cancelled("signal");
        io.stop();
    });

    askhost::Ask ask;
    ask.id = "ask-1";
    ask.questions = std::move(input.questions);
    ask.metadata_json = input.metadata_json;
    ask.agent = "dialog-driver";
    dialog.show(ask, [&](askhost::Outcome o) {
        result = std::move(o);
        one_done();
    });
    if (queue) {
        askhost::Ask again = ask;
        again.id = "ask-2";
        dialog.show(again, [&](askhost::Outcome o) {
            second = std::move(o);
            one_done();
        });
    }
    if (withdraw_after_ms >= 0) {
        withdraw_timer.expires_after(std::chrono::milliseconds(withdraw_after_ms));
        withdraw_timer.async_wait([&](const boost::system::error_code& ec) {
            if (ec) return;
            dialog.withdraw("ask-1");
            result = askhost::Outcome::cancelled("withdrawn");
            one_done();
        });
    }
    io.run();

    if (!result) result = askhost::Outcome::cancelled("no outcome");
    // After a signal the dialog is still open (only the terminal was restored): depth stays 1.
    const bool interrupted = result->reason == "signal";
    if (!active_ok || (active_depth != 0 && !interrupted)) result = askhost::Outcome::cancelled("on_active unbalanced");
    bool ok = write_outcome(out_path, *result);
    if (queue) ok = write_outcome(out_path + ".2", second ? *second : askhost::Outcome::cancelled("no outcome")) && ok;
    if (!ok) {
        std::cerr << "askhost-dialog-driver: cannot write " << out_path << "\n";
        return 1;
    }
    return 0;
}
