#include "app/attach.hpp"

#include <csignal>
#include <cstdlib>
#include <map>
#include <memory>
#include <variant>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "app/hosts_command.hpp"
#include "askhost_config.h"
#include "frontends/editor/editor_protocol.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/terminal_output.hpp"
#include "transport/rpc_binder.hpp"
#include "transport/rpc_errors.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace askhost {

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "next",
     .help = "the host whose questions have waited longest (askhost status); ends once nothing\n"
             "waits there, e.g. in a tmux popup: bind-key A display-popup -E \"askhost attach --next\""},
    {.name = "popup",
     .help = "end once nothing waits, and drop the keys typed in the moment a question opens\n"
             "(how askhost opens it in a tmux popup over the agent that asks)"},
};

}  // namespace

const cli::Command kAttachCommand{
    .name = "attach",
    .synopsis = "[SOCKET | --next] [--popup]",
    .summary =
        "answer a running host's questions in this terminal\n(default: the host of this directory's workspace;\n"
        "--next: the oldest waiting question of any host)",
    .about = "Attach to a running askhost and answer its questions in this terminal.",
    .options = kOptions,
    .operand = "SOCKET",
    .operand_help =
        "the host's socket; default: $ASKHOST_SOCKET, else the host whose workspace\n"
        "holds this directory (the deepest one; see `askhost hosts`)",
    .max_operands = 1,
};

int run_attach(const std::vector<std::string>& args) {
    auto read = cli::read(args, kAttachCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    const bool next = a.has("next"), popup = a.has("popup");
    const std::vector<std::string>& sockets = a.operands;
    if (next && !sockets.empty()) return cli::usage_error(kAttachCommand, "--next takes no SOCKET").print();
    // Both end once nothing waits; a popup also drops the keys typed the moment it opened.
    const bool until_idle = next || popup;
#if !ASKHOST_HAVE_TUI
    write_all(2, "askhost attach: this askhost was built without the terminal dialog\n");
    return 2;
#else
    if (auto why = TerminalDialog::check_terminal()) {
        write_all(2, "askhost attach: needs a terminal that can show the dialog (" + why->message + ")\n");
        return 2;
    }
    std::string path;
    if (next) {
        auto oldest = oldest_waiting_host();
        if (!oldest) {
            write_all(2, "askhost attach: " + oldest.error().message + "\n");
            return 1;
        }
        path = oldest->socket;
    } else if (!sockets.empty()) {
        path = sockets[0];
    } else {
        const char* env = std::getenv("ASKHOST_SOCKET");
        char buf[4096];
        std::string here = ::getcwd(buf, sizeof buf) ? buf : ".";
        auto found = find_host(here, env ? env : "", true);
        if (!found) {
            write_all(2, "askhost attach: " + found.error().message +
                             "\n  `askhost hosts` lists the running hosts; name one's socket to attach to it\n");
            return 1;
        }
        path = found->socket;
    }
    boost::asio::io_context io;
    TerminalOutput out;
    TerminalDialogOptions topts;
    topts.on_active = [&out](bool active) { out.hold(active); };
    if (popup) topts.key_guard = std::chrono::milliseconds(400);
    TerminalDialog dialog(io, std::move(topts));
    HostClient host(io, path, "askhost attach");
    std::map<std::string, Reply<AskShowResult>> open;
    int code = 0;
    bool detaching = false;
    bool shown_any = false;
    // Leaving is not an answer: the host hears the connection close and moves on.
    auto leave = [&](std::string_view why) {
        detaching = true;
        dialog.restore_terminal();
        host.close(why);
        io.stop();
    };

    HostFace face;
    face.show = [&](const AskShowParams& p, Reply<AskShowResult> reply) {
        open.insert_or_assign(p.ask.id, reply);
        shown_any = true;
        dialog.show(p.ask, [&, id = p.ask.id, reply](const Outcome& o) {
            open.erase(id);
            // This terminal went away (a popup closed): leaving is no answer; the question waits.
            if (o.kind == OutcomeKind::ConnectionLost) return leave("terminal closed");
            reply(o);
        });
    };
    face.state = [&](const AskStateParams& p) {
        // --next: done once the host has nothing more waiting (and something was answered here).
        if (until_idle && shown_any && open.empty() && p.state == "idle") leave("done");
    };
    face.withdrawn = [&](const CancelRequestParams& p) {
        dialog.withdraw(p.ask_id);
        auto it = open.find(p.ask_id);
        if (it == open.end()) return;
        it->second.error(rpc_error::request_cancelled, "withdrawn");
        open.erase(it);
    };
    face.output = [&](const AgentOutputParams& p) { out.write(p.stream, p.text); };
    face.exited = [&](const AgentExitParams& p) {
        std::string how = p.exit_code ? "with code " + std::to_string(*p.exit_code)
                          : p.signal  ? "by signal " + std::to_string(*p.signal)
                                      : "";
        out.write(Stream::Stderr, "askhost attach: the agent exited " + how + "\n");
    };
    host.show_to(ClientRole::Person, std::move(face));
    host.on_closed = [&] {
        dialog.restore_terminal();
        if (!detaching) {
            out.hold(false);
            out.write(Stream::Stderr, "askhost attach: the host went away (" + host.closed_because() + ")\n");
            code = 1;
        }
        io.stop();
    };
    host.on_greeted = [&](const Status& refused) {
        if (refused) {
            write_all(2, "askhost attach: the host refused: " + refused->message + "\n");
            code = 1;
            io.stop();
            return;
        }
        out.write(Stream::Stderr,
                  "askhost attach: attached to " + path + "; questions appear here (Ctrl-C to detach)\n");
    };
    if (Status unreachable = host.connect()) {
        write_all(2, "askhost attach: " + unreachable->message + "\n");
        return 1;
    }

    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) leave("detached");
    });
    io.run();
    dialog.restore_terminal();
    out.hold(false);
    return code;
#endif
}

}  // namespace askhost
