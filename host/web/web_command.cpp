#include "web/web_command.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/document.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "core/fd_io.hpp"
#include "core/proc_stat.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "frontends/notify.hpp"
#include "frontends/user_config.hpp"
#include "json/json_access.hpp"
#include "store/fs_util.hpp"
#include "transport/jsonrpc.hpp"
#include "web/qr_text.hpp"
#include "web/web_hub.hpp"
#include "web/web_options.hpp"
#include "web/web_policy.hpp"
#include "web/web_push.hpp"
#include "web/web_push_sender.hpp"
#include "web/web_push_service.hpp"
#include "web/web_push_store.hpp"
#include "web/web_server.hpp"
#include "web/web_token.hpp"

namespace askhost::web {

namespace {

// What the command line asked for (read by the one reader from kWebCommand).
struct WebOptions {
    std::optional<std::string> listen;
    std::vector<std::string> public_names;
    std::string tls_cert, tls_key;
    std::vector<std::string> on_question;
    bool behind_proxy = false, url_only = false, new_token = false, sign_in = false, push_http = false;
};

int fail(const Error& e) {
    write_all(2, "askhost web: " + e.message + "\n");
    if (e.kind == Error::Kind::Usage) write_all(2, "Try 'askhost web --help' for more information.\n");
    return e.exit_status();
}

void log_line(std::string_view m) { write_all(2, "askhost web: " + std::string(m) + "\n"); }

// Where the page is, for the person: the name they reach it by, without the token.
std::string base_url(const ServerOptions& o, bool tls, std::uint16_t port) {
    const std::string scheme = tls || o.behind_proxy ? "https://" : "http://";
    if (o.behind_proxy && !o.public_names.empty()) return scheme + o.public_names.front() + "/";
    std::string host = o.listen.host;
    if (host == "0.0.0.0" || host == "::") host = o.public_names.empty() ? "127.0.0.1" : o.public_names.front();
    else if (host.find(':') != std::string::npos) host = "[" + host + "]";
    return scheme + host + ":" + std::to_string(port) + "/";
}

// The running server's record (beside the hosts' in the registry folder), for `askhost web --url`:
// its pid, the page's address for the person, and where it listens, to ask it for its proof.
struct ServerRecord {
    std::string file;
    Status write(const std::string& url, const ListenAddress& at, std::uint16_t port, bool tls) const {
        auto stat = read_proc_stat(::getpid());
        std::string text = "{\"version\":1,\"pid\":" + std::to_string(::getpid()) +
                           ",\"processStart\":" + std::to_string(stat ? stat->start_ticks : 0) +
                           ",\"url\":" + json_quote(url) + ",\"listen\":" + json_quote(at.host) +
                           ",\"port\":" + std::to_string(port) + ",\"tls\":" + (tls ? "true" : "false") + "}\n";
        return store::atomic_write(file, text, 0600);
    }
    // The pid and URL of the server that runs, or nullopt.
    std::optional<std::pair<long, std::string>> running() const { return running_web_server(file); }

    // The address of the server that runs, once it proved it holds `token`; else why not.
    // `patient`: it may still be reading a token just replaced, so it is asked again for a while.
    Result<std::string> proven(const std::string& token, bool patient) const {
        auto run = running();
        if (!run) return Error::failed("no askhost web is running (start one with `askhost web`)");
        rapidjson::Document doc;
        auto text = store::read_whole(file);
        std::string host;
        std::uint16_t port = 0;
        bool tls = false;
        if (text.status == store::FileText::Status::Ok && !json::parse(doc, text.data) && doc.IsObject()) {
            host = json::string_of(doc, "listen");
            if (const auto* p = json::member(doc, "port"); p && p->IsUint() && p->GetUint() <= 65535)
                port = static_cast<std::uint16_t>(p->GetUint());
            if (const auto* t = json::member(doc, "tls"); t && t->IsBool()) tls = t->GetBool();
        }
        const std::string where =
            "the askhost web that runs (pid " + std::to_string(run->first) + ", " + run->second + ")";
        if (host.empty() || port == 0) return Error::failed(where + " is of an older askhost: restart it");
        // Asked where it listens, by the name it answers to there.
        std::string header;
        if (host == "0.0.0.0") host = "127.0.0.1";
        if (host == "::") host = "::1";
        header = host.find(':') != std::string::npos ? "[" + host + "]" : host;
        header += ":" + std::to_string(port);
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(patient ? 10 : 0);
        for (;;) {
            Status why = WebServer::check_proof(host, port, tls, header, token);
            if (!why) return run->second;
            if (std::chrono::steady_clock::now() >= give_up)
                return Error::failed(where + " does not prove it holds the token (" + why->message +
                                     "): its address is not printed with the token");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
};

// The file's identity and last change: another one in its place, or the same one rewritten.
struct FileStamp {
    ino_t inode = 0;
    timespec mtime{};
    static std::optional<FileStamp> of(const std::string& path) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) return std::nullopt;
        return FileStamp{st.st_ino, st.st_mtim};
    }
    bool operator==(const FileStamp& o) const {
        return inode == o.inode && mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec;
    }
};

// Web Push in the running server: the sender (its own thread), the devices, and their hooks into
// the hub (questions that start and end) and the server (the key for each page, its messages).
struct WebPush {
    std::unique_ptr<push::PushSender> sender;
    std::unique_ptr<push::PushService> service;
    std::string key_path;
    std::optional<FileStamp> key_stamp;  // of the key file the server signs with
    std::string public_key;

    void start(boost::asio::io_context& io, WebHub& hub, WebServer& server, push::SubscriptionStore& subscriptions,
               const push::VapidKey& key, push::Content content, bool allow_http,
               const std::vector<std::string>& public_names) {
        if (auto err = subscriptions.load(allow_http)) log_line(err->message);
        key_path = push::vapid_key_path();
        key_stamp = FileStamp::of(key_path);
        public_key = key.public_key();
        // The JWT's contact (RFC 8292): Apple refuses one at localhost.
        std::string subject = user_config_value("web-push-contact").value_or("");
        if (subject.empty())
            subject = public_names.empty() ? std::string("mailto:askhost-web@example.org")
                                           : "https://" + public_names.front();
        sender = std::make_unique<push::PushSender>(io, key,
                                                    push::SenderOptions{.subject = subject, .allow_http = allow_http});
        service = std::make_unique<push::PushService>(
            io, subscriptions, key.public_key(), push::ServiceOptions{.content = content, .allow_http = allow_http},
            [s = sender.get()](const push::Subscription& to, std::string text, std::string topic,
                               std::chrono::seconds ttl, std::function<void(push::SendResult)> done) {
                s->send(to, std::move(text), std::move(topic), ttl, std::move(done));
            });
        push::PushService* p = service.get();
        p->on_log = log_line;
        p->server_id = [&server] { return server.server_id(); };
        p->on_dropped = [&server](const std::string& endpoint, std::string_view why) {
            server.push_dropped(endpoint, why);
        };
        server.greeting = [p] { return p->hello(); };
        server.on_page_message = [p](std::string_view type, const rapidjson::Value& m) {
            return p->page_message(type, m);
        };
        auto page_removed = hub.on_removed;
        hub.on_removed = [page_removed, p](const std::string& k, std::string_view reason) {
            if (page_removed) page_removed(k, reason);
            p->question_gone(k);
        };
        auto commands = hub.on_question;
        hub.on_question = [commands, p](const WaitingAsk& a) {
            p->question_waiting(a);
            if (commands) commands(a);
        };
    }

    // The key file was replaced (askhost web --new-token): the server signs with the new key, and
    // the subscriptions made for the old one are dropped. Looked at on each tick, apart from the
    // token: --new-token in another process writes the two one after the other, and a server that
    // reloaded the key when it saw the token could read the old one in between, and keep it.
    void follow_key() {
        if (!service) return;
        auto stamp = FileStamp::of(key_path);
        if (!stamp || stamp == key_stamp) return;  // gone: the key in memory stays until a new one
        key_stamp = stamp;
        auto key = push::load_vapid_key(key_path, false);
        if (!key) return log_line("the push key was replaced by one that cannot be used: " + key.error().message);
        if (key->public_key() == public_key) return;
        public_key = key->public_key();
        sender->set_key(*key);
        service->key_changed(public_key);
        log_line("a new push key: each device subscribes again when its page is opened");
    }
};

}  // namespace

int run_web(const std::vector<std::string>& args) {
    auto read = cli::read(args, kWebCommand);
    if (auto* done = std::get_if<cli::Exit>(&read)) return done->print();
    const cli::Args& a = std::get<cli::Args>(read);
    WebOptions o;
    o.listen = a.value("listen");
    o.public_names = a.values("public-name");
    o.tls_cert = a.value("tls-cert").value_or("");
    o.tls_key = a.value("tls-key").value_or("");
    o.on_question = a.values("on-question");
    for (const auto& cmd : o.on_question)
        if (auto problem = command_line_problem(cmd)) return fail(Error::usage("--on-question: " + *problem));
    o.behind_proxy = a.has("behind-proxy");
    o.url_only = a.has("url");
    o.new_token = a.has("new-token");
    o.sign_in = a.has("sign-in-link");
    o.push_http = a.has("push-allow-http");
    push::Content push_content = push::Content::Full;
    if (auto c = user_config_value("web-push"); c && !c->empty()) {
        auto parsed = push::parse_content(*c);
        if (!parsed)
            return fail(Error::usage(user_config_path() + ": web-push: '" + *c + "' is not full, who or none"));
        push_content = *parsed;
    }
    if (o.tls_cert.empty() != o.tls_key.empty())
        return fail(Error::usage("--tls-cert and --tls-key go together: the certificate and its key"));
    if (!o.tls_cert.empty() && o.behind_proxy)
        return fail(Error::usage("--behind-proxy is for a proxy that does TLS; with --tls-cert askhost does it"));

    ServerOptions server_opts;
    server_opts.tls_cert = o.tls_cert;
    server_opts.tls_key = o.tls_key;
    server_opts.behind_proxy = o.behind_proxy;
    server_opts.sign_in_file = sign_in_path();
    server_opts.public_names = o.public_names;
    if (server_opts.public_names.empty())
        if (auto name = user_config_value("web-public-name"); name && !name->empty())
            server_opts.public_names.push_back(*name);
    std::string listen_text = o.listen.value_or("127.0.0.1:0");
    if (!o.listen)
        if (auto port = user_config_value("web-port"); port && !port->empty()) listen_text = "127.0.0.1:" + *port;
    auto listen = parse_listen(listen_text);
    if (!listen) {
        Error e = listen.error();
        if (!o.listen) e.message = user_config_path() + ": web-port: " + e.message.substr(e.message.find(": ") + 2);
        return fail(e);
    }
    server_opts.listen = *listen;
    for (const auto& name : server_opts.public_names)
        if (!host_name(name)) return fail(Error::usage("--public-name " + name + ": not a host name"));

    auto registry = socket_directory();
    if (!registry) return fail(Error::failed("no registry folder: " + registry.error().message));
    const ServerRecord record{*registry + "/web.json"};

    // Web Push's key goes with the token: a new one makes every subscription made for the old void.
    // Replaced before the token, so that a running server that sees the new token finds the new key.
    auto vapid = push::load_vapid_key(push::vapid_key_path(), o.new_token);
    push::SubscriptionStore subscriptions(push::subscriptions_path());
    if (o.new_token && !subscriptions.path().empty()) subscriptions.clear();
    // So do the one-time sign-in links not used yet: the person may be replacing a token that got out.
    if (o.new_token)
        if (auto err = SignInCodes(sign_in_path()).clear()) return fail(*err);
    TokenFile token(token_path());
    if (auto err = token.load(o.new_token)) return fail(*err);

    if (o.url_only || o.sign_in) {
        // Only a server that proves it holds the token is named with it: a port another user took
        // while askhost web was down gets nothing.
        auto base = record.proven(token.token(), o.new_token);
        if (!base) return fail(base.error());
        if (!o.sign_in) {
            write_all(1, *base + "?token=" + token.token() + "\n");
            return 0;
        }
        const SignInCodes codes(sign_in_path());
        auto code = codes.add(
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                .count());
        if (!code) return fail(code.error());
        const std::string link = *base + "?signin=" + *code;
        write_all(1, link + "\n");
        if (::isatty(1))
            if (std::string qr = qr_text(link); !qr.empty()) write_all(1, qr);
        log_line("a one-time link: it signs in one browser, within " +
                 std::to_string(SignInCodes::kLifetimeSeconds / 60) + " minutes");
        return 0;
    }
    // One page per user: a second server would take the record (--url) from the first.
    if (auto running = record.running()) {
        const std::string where =
            "askhost web already runs (pid " + std::to_string(running->first) + ", " + running->second + ")";
        if (!o.new_token) return fail(Error::failed(where + ": askhost web --url prints its address with the token"));
        auto base = record.proven(token.token(), true);  // as --url --new-token
        if (!base) return fail(base.error());
        write_all(1, *base + "?token=" + token.token() + "\n");
        log_line(where + ": it serves the new token from now on");
        return 0;
    }
    if (o.new_token) log_line("a new token: links and pages opened with the old one no longer work");

    // Beyond this machine in plain HTTP, the token and every question would cross the network
    // readable by anyone on the path.
    if (!server_opts.listen.loopback && o.tls_cert.empty() && !o.behind_proxy)
        return fail(Error::usage(
            "refusing to listen on " + listen_text +
            " in plain HTTP: beyond this machine anyone on the network path could read the token, every "
            "question and its answer. Give --tls-cert FILE --tls-key FILE; or, behind a proxy that does TLS, "
            "--behind-proxy; or listen on 127.0.0.1 and reach it with ssh -L or tailscale serve (docs/web.md)"));

    boost::asio::io_context io;
    WebHub hub(io, *registry);
    hub.on_log = log_line;
    WebServer server(io, hub, token, server_opts);
    server.on_log = log_line;
    if (auto err = server.start()) return fail(*err);

    const std::string base = base_url(server_opts, server.tls(), server.port());
    const std::string url = base + "?token=" + token.token();
    // Recorded before the URL is printed: whoever reads that line may ask --url at once.
    if (auto err = record.write(base, server_opts.listen, server.port(), server.tls()))
        log_line("askhost web --url will not find this server: " + err->message);
    write_all(1, url + "\n");  // the first line, for a script to read
    if (::isatty(1))
        if (std::string qr = qr_text(url); !qr.empty()) write_all(1, qr);
    log_line("serving " + base + " (" + std::to_string(server.port()) + "); Ctrl-C stops");

    // For --on-question commands: the page's address without the token (a push service or a
    // notification is no place for it; the phone already holds its cookie).
    ::setenv("ASKHOST_WEB_URL", base.c_str(), 1);
    if (!o.on_question.empty())
        hub.on_question = [&o](const WaitingAsk& a) {
            NotifyOptions n;
            n.on_question = o.on_question;
            tell_question_waiting(a.ask, n, log_line);
        };
    // Web Push (issue 44): the devices the pages subscribed, told of each question that starts
    // waiting and of its end.
    WebPush push;
    if (!vapid) log_line("no push notifications: " + vapid.error().message);
    else push.start(io, hub, server, subscriptions, *vapid, push_content, o.push_http, server_opts.public_names);
    hub.on_tick = [&] {
        if (token.refresh()) {
            log_line("the token was replaced: pages opened with the old one must open the new link");
            server.token_changed();
        }
        push.follow_key();
    };
    boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) io.stop();
    });
    hub.start();
    io.run();
    if (auto running = record.running(); running && running->first == ::getpid()) ::unlink(record.file.c_str());
    return 0;
}

}  // namespace askhost::web
