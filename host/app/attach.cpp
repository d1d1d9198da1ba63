#include "app/attach.hpp"

#include <csignal>
#include <cstdlib>
#include <map>
#include <memory>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "app/hosts_command.hpp"
#include "askhost_config.h"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/terminal_output.hpp"
#include "transport/connection.hpp"
#include "transport/rpc_errors.hpp"
#if ASKHOST_HAVE_TUI
#include "frontends/tui/terminal_dialog.hpp"
#endif

namespace askhost {

namespace {

constexpr const char* kUsage =
    "usage: askhost attach [SOCKET | --next] [--popup]\n"
    "Attach to a running askhost and answer its questions in this terminal.\n"
    "--next attaches to the host whose questions have waited longest (askhost status) and ends\n"
    "once nothing waits there, e.g. in a tmux popup:\n"
    "  bind-key A display-popup -E \"askhost attach --next\"\n"
    "--popup ends once nothing waits and drops the keys typed in the moment a question opens\n"
    "(how askhost opens it in a tmux popup over the agent that asks).\n"
    "SOCKET defaults to $ASKHOST_SOCKET, else the host whose workspace holds this directory\n"
    "(the deepest one; see `askhost hosts`).\n";

// The Ask an ask/show request carries, checked like an agent's (lenient: the host already checked).
Parsed<Ask> ask_from_params(const rapidjson::Value& params) {
    if (!params.IsObject()) return Refusal{"invalid_request", "params", "params: expected an object"};
    auto id = params.FindMember("id");
    if (id == params.MemberEnd() || !id->value.IsString())
        return Refusal{"invalid_request", "params.id", "params.id: expected a string"};
    rapidjson::Document tool(rapidjson::kObjectType);
    auto q = params.FindMember("questions");
    if (q != params.MemberEnd()) tool.AddMember("questions", rapidjson::Value(q->value, tool.GetAllocator()), tool.GetAllocator());
    auto parsed = parse_ask_input(tool, Profile::Lenient);
    if (auto* r = std::get_if<Refusal>(&parsed)) return *r;
    Ask ask;
    ask.id = id->value.GetString();
    ask.questions = std::get<AskInput>(std::move(parsed)).questions;
    auto agent = params.FindMember("agent");
    if (agent != params.MemberEnd() && agent->value.IsString()) ask.agent = agent->value.GetString();
    return ask;
}

}  // namespace

int run_attach(const std::vector<std::string>& args) {
    bool next = false, popup = false;
    std::vector<std::string> sockets;
    for (const auto& a : args) {
        if (a == "-h" || a == "--help") {
            write_all(1, kUsage);
            return 0;
        }
        if (a == "--next") next = true;
        else if (a == "--popup") popup = true;
        else if (a.rfind("-", 0) == 0) {
            write_all(2, "askhost attach: unknown option " + a + "\n" + kUsage);
            return 2;
        } else sockets.push_back(a);
    }
    if (sockets.size() > 1 || (next && !sockets.empty())) {
        write_all(2, std::string("askhost attach: ") + (next ? "--next takes no SOCKET" : "too many arguments") + "\n" + kUsage);
        return 2;
    }
    // Both end once nothing waits; a popup also drops the keys typed the moment it opened.
    const bool until_idle = next || popup;
#if !ASKHOST_HAVE_TUI
    write_all(2, "askhost attach: this askhost was built without the terminal dialog\n");
    return 2;
#else
    if (auto why = TerminalDialog::unavailable_reason()) {
        write_all(2, "askhost attach: needs a terminal that can show the dialog (" + *why + ")\n");
        return 2;
    }
    std::string why;
    std::string path;
    if (next) {
        auto oldest = oldest_waiting_host(&why);
        if (!oldest) {
            write_all(2, "askhost attach: " + why + "\n");
            return 1;
        }
        path = oldest->socket;
    } else if (!sockets.empty()) {
        path = sockets[0];
    } else {
        const char* env = std::getenv("ASKHOST_SOCKET");
        char buf[4096];
        std::string here = ::getcwd(buf, sizeof buf) ? buf : ".";
        auto found = find_host(here, env ? env : "", &why, true);
        if (!found) {
            write_all(2, "askhost attach: " + why + "\n  `askhost hosts` lists the running hosts; name one's socket to attach to it\n");
            return 1;
        }
        path = found->socket;
    }
    int fd = connect_socket(path, &why);
    if (fd < 0) {
        write_all(2, "askhost attach: cannot connect: " + why + "\n");
        return 1;
    }
    int out_fd = ::dup(fd);

    boost::asio::io_context io;
    TerminalOutput out;
    TerminalDialogOptions topts;
    topts.on_active = [&out](bool active) { out.hold(active); };
    if (popup) topts.key_guard = std::chrono::milliseconds(400);
    TerminalDialog dialog(io, std::move(topts));
    auto conn = std::make_shared<Connection>(io, fd, out_fd);
    std::map<std::string, std::shared_ptr<Responder>> open;
    int code = 0;
    bool detaching = false;
    bool shown_any = false;

    auto& rpc = conn->rpc();
    rpc.on_request = [&](std::string_view method, const rapidjson::Value& params, Responder r) {
        if (method != "ask/show") {
            r.error(rpc_error::method_not_found, "method not found: " + std::string(method));
            return;
        }
        auto parsed = ask_from_params(params);
        if (auto* bad = std::get_if<Refusal>(&parsed)) {
            r.error(rpc_error::invalid_params, bad->message);
            return;
        }
        Ask ask = std::get<Ask>(std::move(parsed));
        auto responder = std::make_shared<Responder>(std::move(r));
        open[ask.id] = responder;
        shown_any = true;
        std::string id = ask.id;
        dialog.show(ask, [&, id, responder](Outcome o) {
            open.erase(id);
            if (o.kind == OutcomeKind::ConnectionLost) {
                // This terminal went away (a popup closed): leaving is no answer; the question waits.
                detaching = true;
                conn->close("terminal closed");
                io.stop();
                return;
            }
            responder->result(outcome_json(o));
        });
    };
    rpc.on_notify = [&](std::string_view method, const rapidjson::Value& params) {
        if (method == "ask/state" && params.IsObject()) {
            // --next: done once the host has nothing more waiting (and something was answered here).
            auto state = params.FindMember("state");
            if (until_idle && shown_any && open.empty() && state != params.MemberEnd() && state->value.IsString() &&
                std::string_view(state->value.GetString()) == "idle") {
                detaching = true;
                dialog.restore_terminal();
                conn->close("done");
                io.stop();
            }
        } else if (method == "$/cancelRequest" && params.IsObject()) {
            auto id = params.FindMember("askId");
            if (id == params.MemberEnd() || !id->value.IsString()) return;
            std::string ask_id = id->value.GetString();
            dialog.withdraw(ask_id);
            auto it = open.find(ask_id);
            if (it != open.end()) {
                it->second->error(rpc_error::request_cancelled, "withdrawn");
                open.erase(it);
            }
        } else if (method == "agent/output" && params.IsObject()) {
            auto s = params.FindMember("stream");
            auto t = params.FindMember("text");
            if (t == params.MemberEnd() || !t->value.IsString()) return;
            bool err = s != params.MemberEnd() && s->value.IsString() && std::string_view(s->value.GetString()) == "stderr";
            out.write(err ? Stream::Stderr : Stream::Stdout,
                      std::string_view(t->value.GetString(), t->value.GetStringLength()));
        } else if (method == "agent/exit" && params.IsObject()) {
            auto c = params.FindMember("exitCode");
            auto sig = params.FindMember("signal");
            std::string how = c != params.MemberEnd() && c->value.IsInt() ? "with code " + std::to_string(c->value.GetInt())
                              : sig != params.MemberEnd() && sig->value.IsInt() ? "by signal " + std::to_string(sig->value.GetInt())
                                                                                : "";
            out.write(Stream::Stderr, "askhost attach: the agent exited " + how + "\n");
        }
    };
    conn->on_closed = [&](std::string_view reason) {
        dialog.restore_terminal();
        if (!detaching) {
            out.hold(false);
            out.write(Stream::Stderr, "askhost attach: the host went away (" + std::string(reason) + ")\n");
            code = 1;
        }
        io.stop();
    };
    conn->start();
    rpc.call("initialize",
             "{\"clientInfo\":{\"name\":\"askhost attach\",\"version\":\"" ASKHOST_VERSION "\"},"
             "\"capabilities\":{\"ask\":{\"multiSelect\":true,\"previews\":true,\"notes\":true}}}",
             [&](const rapidjson::Value*, const RpcError* err) {
                 if (err) {
                     write_all(2, "askhost attach: the host refused: " + err->message + "\n");
                     code = 1;
                     io.stop();
                     return;
                 }
                 rpc.notify("initialized", "{}");
                 out.write(Stream::Stderr, "askhost attach: attached to " + path +
                                               "; questions appear here (Ctrl-C to detach)\n");
             });

    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (ec) return;
        detaching = true;
        dialog.restore_terminal();
        // Leaving is not an answer: the host hears the connection close and moves on.
        conn->close("detached");
        io.stop();
    });
    io.run();
    dialog.restore_terminal();
    out.hold(false);
    return code;
#endif
}

}  // namespace askhost
