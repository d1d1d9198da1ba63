// Shows one ask in the terminal dialog and writes its outcome: the tmux tests drive this.
// usage: askhost-dialog-driver QUESTIONS.json OUT.json [--tty PATH] [--no-bell]
#include <clocale>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/outcome.hpp"
#include "model/question.hpp"
#include "tui/terminal_dialog.hpp"

namespace {

int usage() {
    std::cerr << "usage: askhost-dialog-driver QUESTIONS.json OUT.json [--tty PATH] [--no-bell]\n";
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
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--tty" && i + 1 < argc) options.tty_path = argv[++i];
        else if (arg == "--no-bell") options.bell = false;
        else return usage();
    }

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
    std::optional<askhost::Outcome> result;

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
        signals.cancel();
    });
    io.run();

    if (!result) result = askhost::Outcome::cancelled("no outcome");
    if (!write_outcome(out_path, *result)) {
        std::cerr << "askhost-dialog-driver: cannot write " << out_path << "\n";
        return 1;
    }
    return 0;
}
