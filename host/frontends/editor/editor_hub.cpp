#include "frontends/editor/editor_hub.hpp"

#include <algorithm>
#include <map>

#include <boost/asio/post.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "askhost_config.h"
#include "frontends/editor/ask_json.hpp"
#include "json/json_access.hpp"
#include "json/json_text.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost {

namespace {

// Output beyond this, queued for a client that does not read, is dropped (and the drop reported);
// not for the primary editor, for which the agent's output waits instead.
constexpr std::size_t kMaxQueuedOutput = 16 * 1024 * 1024;

using json::member;

}  // namespace

class EditorClient final : public Frontend {
public:
    EditorClient(EditorHub& hub, std::shared_ptr<Connection> conn, bool primary)
        : hub_(hub), conn_(std::move(conn)), primary_(primary) {
        auto& rpc = conn_->rpc();
        rpc.on_request = [this](std::string_view m, const rapidjson::Value& p, Responder r) {
            on_request(m, p, std::move(r));
        };
        rpc.on_notify = [this](std::string_view m, const rapidjson::Value& p) { on_notify(m, p); };
        if (primary_)
            conn_->on_written = [this, alive = alive_] {
                if (*alive && hub_.on_primary_written) hub_.on_primary_written();
            };
        conn_->on_problem = [this](std::string_view p) {
            if (hub_.on_log) hub_.on_log(std::string(primary_ ? "editor" : "client") + ": " + std::string(p));
        };
        conn_->on_closed = [this](std::string_view) {
            // Leave the callback before this client is destroyed.
            boost::asio::post(hub_.io_, [&hub = hub_, self = this] { hub.remove_client(self); });
            if (showing_frontend_) {
                showing_frontend_ = false;
                // Only the editor that started askhost takes its asks with it; a socket client
                // (askhost attach, a popup) leaving is no answer: the question goes on waiting.
                hub_.broker_.remove_frontend(*this, primary_ && !said_exit_);
            }
            withdraw_submitted();  // nobody is left to hand the answers to
        };
    }

    ~EditorClient() override {
        if (showing_frontend_) hub_.broker_.remove_frontend(*this, true);
        withdraw_submitted();
    }

    void start() { conn_->start(); }
    bool primary() const { return primary_; }
    // Bytes waiting for this client: queued for writing, or kept until it is initialized.
    std::size_t backlog() const { return conn_->queued_bytes() + early_bytes_; }
    bool ready() const { return initialized_ && !conn_->closed(); }
    Connection& connection() { return *conn_; }

    std::string_view name() const override { return client_name_; }

    void show(const Ask& ask, Done done) override {
        // A client hears of an ask (ask/state) before it is asked to show it.
        hub_.flush_state();
        const std::string ask_id = ask.id;
        auto request = conn_->rpc().call("ask/show", ask_show_params(ask, caps_),
            [this, ask, done = std::move(done), alive = alive_](const rapidjson::Value* result, const RpcError* err) {
                if (!*alive || conn_->closed()) return;  // gone: the broker hears it from on_closed
                auto it = open_.find(ask.id);
                if (it == open_.end()) return;  // withdrawn meanwhile: a late reply is dropped
                open_.erase(it);
                if (err) {
                    done(Outcome::cancelled("the client could not show the question: " + err->message));
                    return;
                }
                auto parsed = parse_client_outcome(*result, ask);
                if (auto* bad = std::get_if<Refusal>(&parsed)) {
                    if (hub_.on_log) hub_.on_log("client " + client_name_ + " returned an invalid answer: " + bad->message);
                    done(Outcome::cancelled("invalid answer from the client: " + bad->message));
                    return;
                }
                done(std::get<Outcome>(std::move(parsed)));
            });
        open_[ask_id] = request;
    }

    void withdraw(const std::string& ask_id) override {
        auto it = open_.find(ask_id);
        if (it == open_.end()) return;
        std::string params = "{\"id\":" + it->second + ",\"askId\":" + json_quote(ask_id) + "}";
        open_.erase(it);
        conn_->rpc().notify("$/cancelRequest", params);
    }

    void notify(std::string_view method, const std::string& params) {
        if (ready()) conn_->rpc().notify(method, params);
        else if (!conn_->closed()) keep_early(method, params);
    }

    void output(Stream stream, std::string_view text) {
        if (!ready() && conn_->closed()) return;
        // The primary editor loses nothing: the host stops reading the agent's output while that
        // editor is behind (see Host::output). Other clients may fall behind on their own.
        if (!primary_ && conn_->queued_bytes() > kMaxQueuedOutput) {
            dropped_ += text.size();
            return;
        }
        if (dropped_) {
            std::string note = "[askhost: " + std::to_string(dropped_) +
                               " bytes of agent output dropped: the client was not reading]\n";
            dropped_ = 0;
            output(Stream::Stderr, note);
        }
        std::string_view head = stream == Stream::Stdout ? "{\"stream\":\"stdout\",\"text\":" : "{\"stream\":\"stderr\",\"text\":";
        if (!ready()) {
            std::string params(head);
            append_json_text(params, text);
            params.push_back('}');
            keep_early("agent/output", params);
            return;
        }
        // The whole message is built in one string: the bulk of the bytes is copied once.
        std::string msg = jsonrpc::notification_head("agent/output");
        msg.append(head);
        append_json_text(msg, text);
        msg.append("}}");
        conn_->rpc().send_message(std::move(msg));
    }

    // The agent is done: output dropped since the last note is reported now, or never would be.
    void report_dropped() {
        if (!dropped_ || conn_->closed()) return;
        std::string note = "[askhost: " + std::to_string(dropped_) +
                           " bytes of agent output dropped: the client was not reading]\n";
        dropped_ = 0;
        notify("agent/output", "{\"stream\":\"stderr\",\"text\":" + json_quote(note) + "}");
    }

private:
    void on_request(std::string_view method, const rapidjson::Value& params, Responder r) {
        if (method == "initialize") {
            if (initialize_seen_) return r.error(rpc_error::invalid_request, "initialize was already called");
            initialize_seen_ = true;
            if (const auto* ci = member(params, "clientInfo")) client_name_ = json::string_of(*ci, "name");
            if (client_name_.empty()) client_name_ = primary_ ? "editor" : "client";
            if (const auto* ci = member(params, "clientInfo")) client_version_ = json::string_of(*ci, "version");
            read_workspace(params);
            if (const auto* caps = member(params, "capabilities")) {
                caps_ = parse_client_caps(*caps);
                const auto* ask = member(*caps, "ask");
                if (ask && ask->IsBool()) can_show_ = ask->GetBool();
            }
            r.result(std::string("{\"serverInfo\":{\"name\":\"askhost\",\"version\":\"") + ASKHOST_VERSION +
                     "\"},\"capabilities\":{\"ask\":{\"multiSelect\":true,\"previews\":true,\"notes\":true},"
                     "\"agent\":{\"start\":true,\"prompt\":true,\"stop\":true},"
                     "\"workspace\":{\"workspaceFolders\":{\"supported\":true,\"changeNotifications\":true}}},"
                     "\"socket\":" + (hub_.socket_path_.empty() ? std::string("null") : json_quote(hub_.socket_path_)) + "}");
            if (!folders_.empty() || primary_) workspace_changed();
            return;
        }
        if (!initialize_seen_) return r.error(rpc_error::server_not_initialized, "initialize first");
        if (shutdown_) return r.error(rpc_error::invalid_request, "the server is shutting down");
        if (method == "shutdown") {
            shutdown_ = true;
            r.result("null");
            return;
        }
        if (method == "agent/start") return agent_start(params, std::move(r));
        if (method == "ask/submit") return ask_submit(params, std::move(r));
        if (method == "agent/prompt") {
            std::string text;
            const auto* t = member(params, "text");
            if (!t || !t->IsString()) return r.error(rpc_error::invalid_params, "params.text: expected a string");
            text.assign(t->GetString(), t->GetStringLength());
            if (auto err = hub_.control_.prompt_agent(text)) return r.error(rpc_error::agent_error, err->message);
            r.result("{}");
            return;
        }
        if (method == "agent/stop") {
            auto shared = std::make_shared<Responder>(std::move(r));
            bool running = hub_.control_.stop_agent([shared](AgentExit e) {
                shared->result("{\"exitCode\":" + (e.signal ? std::string("null") : std::to_string(e.exit_code)) +
                               ",\"signal\":" + (e.signal ? std::to_string(e.signal) : std::string("null")) + "}");
            });
            if (!running) shared->error(rpc_error::agent_error, "no agent is running");
            return;
        }
        r.error(rpc_error::method_not_found, "method not found: " + std::string(method));
    }

    void agent_start(const rapidjson::Value& params, Responder r) {
        if (!params.IsObject()) return r.error(rpc_error::invalid_params, "params: expected an object");
        auto cmd = params.FindMember("command");
        if (cmd == params.MemberEnd() || !cmd->value.IsArray() || cmd->value.Empty())
            return r.error(rpc_error::invalid_params, "params.command: expected a non-empty array of strings");
        LaunchSpec spec;
        for (const auto& a : cmd->value.GetArray()) {
            if (!a.IsString()) return r.error(rpc_error::invalid_params, "params.command: expected strings");
            spec.argv.emplace_back(a.GetString(), a.GetStringLength());
        }
        spec.cwd = json::string_of(params, "cwd");
        auto env = params.FindMember("env");
        if (env != params.MemberEnd()) {
            if (!env->value.IsObject()) return r.error(rpc_error::invalid_params, "params.env: expected an object");
            for (const auto& m : env->value.GetObject()) {
                if (!m.value.IsString()) return r.error(rpc_error::invalid_params, "params.env: values must be strings");
                spec.env[m.name.GetString()] = m.value.GetString();
            }
        }
        std::string adapter = json::string_of(params, "adapter");
        auto res = hub_.control_.start_agent(spec, adapter.empty() ? "auto" : adapter);
        if (auto* err = std::get_if<Error>(&res)) return r.error(rpc_error::agent_error, err->message);
        r.result("{\"pid\":" + std::to_string(std::get<int>(res)) + "}");
    }

    // A client asks the person (askhost mcp, the pi extension): the broker shows it like an agent's.
    void ask_submit(const rapidjson::Value& params, Responder r) {
        if (!params.IsObject()) return r.error(rpc_error::invalid_params, "params: expected an object");
        Profile profile = Profile::Lenient;
        auto p = params.FindMember("profile");
        if (p != params.MemberEnd()) {
            auto parsed = p->value.IsString() ? parse_profile(p->value.GetString()) : std::nullopt;
            if (!parsed) return r.error(rpc_error::invalid_params, "params.profile: expected \"strict\" or \"lenient\"");
            profile = *parsed;
        }
        rapidjson::Document tool(rapidjson::kObjectType);
        for (const char* key : {"questions", "metadata", "answers", "annotations"}) {
            auto it = params.FindMember(key);
            if (it == params.MemberEnd()) continue;
            // The copy below recurses as deep as the value nests; the model refuses far less.
            if (json::deeper_than(it->value, 2 * Limits::max_json_depth))
                return r.result(outcome_json(Outcome::refused(
                    {"invalid_schema", key, std::string(key) + ": nested deeper than " +
                                                std::to_string(2 * Limits::max_json_depth) + " levels"})));
            tool.AddMember(rapidjson::Value(key, tool.GetAllocator()), rapidjson::Value(it->value, tool.GetAllocator()),
                           tool.GetAllocator());
        }
        auto parsed = parse_ask_input(tool, profile);
        if (auto now = outcome_without_asking(parsed)) return r.result(outcome_json(*now));
        auto input = std::get<AskInput>(std::move(parsed));
        Ask ask;
        ask.questions = std::move(input.questions);
        ask.metadata_json = std::move(input.metadata_json);
        ask.agent = json::string_of(params, "agent");
        if (ask.agent.empty()) ask.agent = client_name_;
        ask.client = json::string_of(params, "client");
        ask.profile = profile;
        ask.route = json::string_of(params, "route");
        if (ask.route.empty() || ask.route == "agent") ask.route = "submit";
        ask.cwd = json::string_of(params, "cwd");
        const std::string request_id = r.id_json();
        auto responder = std::make_shared<Responder>(std::move(r));
        submitted_[request_id] = {};
        std::string ask_id = hub_.broker_.submit(std::move(ask), [this, request_id, responder, alive = alive_](Outcome o) {
            if (*alive) submitted_.erase(request_id);
            responder->result(outcome_json(o));
        });
        auto it = submitted_.find(request_id);
        if (it != submitted_.end()) it->second = ask_id;  // still waiting (not answered inside submit)
    }

    void withdraw_submitted() {
        auto open = std::move(submitted_);
        submitted_.clear();
        for (const auto& [request, ask_id] : open) hub_.broker_.withdraw(ask_id);
    }

    void on_notify(std::string_view method, const rapidjson::Value& params) {
        if (method == "initialized") {
            if (!initialize_seen_ || initialized_) return;
            initialized_ = true;
            // What the agent said before the client was ready (it starts with askhost) comes first.
            auto early = std::move(early_);
            early_.clear();
            early_bytes_ = 0;
            for (const auto& [m, p] : early)
                if (m != "ask/state") conn_->rpc().notify(m, p);
            notify("ask/state", ask_state_params(hub_.broker_.pending()));
            if (can_show_) {
                showing_frontend_ = true;
                hub_.broker_.add_frontend(*this);
            }
        } else if (method == "workspace/didChangeWorkspaceFolders") {
            const auto* event = member(params, "event");
            if (!initialize_seen_ || !event) return;
            auto removed = folders_from(member(*event, "removed"));
            std::erase_if(folders_, [&](const WorkspaceFolder& f) {
                return std::any_of(removed.begin(), removed.end(), [&](const WorkspaceFolder& r) { return r.path == f.path; });
            });
            for (auto& f : folders_from(member(*event, "added"))) add_folder(std::move(f));
            workspace_changed();
        } else if (method == "exit") {
            said_exit_ = true;
            int code = shutdown_ ? 0 : 1;
            if (primary_ && hub_.on_exit) hub_.on_exit(code);
            conn_->close("exit");
        } else if (method == "$/cancelRequest" && params.IsObject()) {
            // The client no longer wants the answer to one of its ask/submit requests.
            auto id = params.FindMember("id");
            // Only a string or an integer can be an id we gave out (and serialising anything
            // else would recurse as deep as a peer nests it).
            if (id == params.MemberEnd() || !(id->value.IsString() || id->value.IsInt64())) return;
            auto it = submitted_.find(to_json(id->value));
            if (it == submitted_.end()) return;
            std::string ask_id = it->second;
            submitted_.erase(it);
            hub_.broker_.withdraw(ask_id);
        }
        // Other notifications ($/setTrace, ...) need nothing from the host.
    }

    // LSP's workspaceFolders (or rootUri when they are absent): file:// folders only.
    void read_workspace(const rapidjson::Value& params) {
        const auto* folders = member(params, "workspaceFolders");
        if (folders && folders->IsArray()) {
            for (auto& f : folders_from(folders)) add_folder(std::move(f));
            return;
        }
        const auto* root = member(params, "rootUri");
        if (root && root->IsString())
            if (auto path = path_from_file_uri(json::str(*root))) add_folder(folder_from_path(*path));
    }

    static std::vector<WorkspaceFolder> folders_from(const rapidjson::Value* list) {
        std::vector<WorkspaceFolder> out;
        if (!list || !list->IsArray()) return out;
        for (const auto& f : list->GetArray()) {
            if (out.size() >= kMaxFolders) break;
            std::string uri = json::string_of(f, "uri");
            auto path = path_from_file_uri(uri);
            if (!path) continue;
            WorkspaceFolder wf = folder_from_path(*path);
            wf.uri = uri;
            if (std::string name = json::string_of(f, "name"); !name.empty()) wf.name = name;
            out.push_back(std::move(wf));
        }
        return out;
    }

    void add_folder(WorkspaceFolder f) {
        if (folders_.size() >= kMaxFolders) return;
        for (const auto& have : folders_)
            if (have.path == f.path) return;
        folders_.push_back(std::move(f));
    }

    void workspace_changed() {
        if (hub_.on_workspace_changed) hub_.on_workspace_changed();
    }

    // Notifications that came before `initialized`, kept (up to a bound) for when it comes.
    void keep_early(std::string_view method, const std::string& params) {
        if (early_bytes_ + params.size() > kMaxQueuedOutput) return;
        early_bytes_ += params.size();
        early_.emplace_back(std::string(method), params);
    }

    static constexpr std::size_t kMaxFolders = 256;
    std::vector<std::pair<std::string, std::string>> early_;
    std::size_t early_bytes_ = 0;

    EditorHub& hub_;
    std::shared_ptr<Connection> conn_;
    bool primary_;
    bool initialize_seen_ = false, initialized_ = false, shutdown_ = false, said_exit_ = false;
    bool can_show_ = true, showing_frontend_ = false;
    ClientAskCaps caps_;
    std::string client_name_ = "client";
    std::string client_version_;
    std::vector<WorkspaceFolder> folders_;
    std::map<std::string, std::string> open_;  // ask id -> ask/show request id (JSON)
    std::map<std::string, std::string> submitted_;  // ask/submit request id (JSON) -> ask id
    std::size_t dropped_ = 0;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);

public:
    void mark_dead() { *alive_ = false; }
    const std::vector<WorkspaceFolder>& folders() const { return folders_; }
    const std::string& client_name() const { return client_name_; }
    const std::string& client_version() const { return client_version_; }
    bool initialize_seen() const { return initialize_seen_; }
    bool said_exit() const { return said_exit_; }
};

EditorHub::EditorHub(boost::asio::io_context& io, Broker& broker, AgentControl& control)
    : io_(io), broker_(broker), control_(control) {}

EditorHub::~EditorHub() {
    *alive_ = false;
    for (auto& c : clients_) c->mark_dead();
}

void EditorHub::add_client(std::shared_ptr<Connection> connection, bool primary) {
    clients_.push_back(std::make_unique<EditorClient>(*this, std::move(connection), primary));
    clients_.back()->start();
}

std::vector<WorkspaceFolder> EditorHub::workspace_folders() const {
    std::vector<WorkspaceFolder> out;
    for (const auto& c : clients_)
        for (const auto& f : c->folders())
            if (std::none_of(out.begin(), out.end(), [&](const WorkspaceFolder& o) { return o.path == f.path; }))
                out.push_back(f);
    return out;
}

std::pair<std::string, std::string> EditorHub::primary_client() const {
    for (const auto& c : clients_)
        if (c->primary() && c->initialize_seen()) return {c->client_name(), c->client_version()};
    return {};
}

void EditorHub::remove_client(EditorClient* c) {
    for (auto it = clients_.begin(); it != clients_.end(); ++it) {
        if (it->get() != c) continue;
        bool lost = c->primary() && !c->said_exit();
        bool had_folders = !c->folders().empty();
        c->mark_dead();
        clients_.erase(it);
        if (had_folders && on_workspace_changed) on_workspace_changed();
        if (lost && on_primary_lost) on_primary_lost();
        return;
    }
}

void EditorHub::state_changed() {
    // Each ask/state lists every pending ask: one per change made 1000 asks arriving together
    // cost quadratic bytes (200 MB queued). One per turn, with the state as it is then.
    state_dirty_ = true;
    if (state_posted_) return;
    state_posted_ = true;
    boost::asio::post(io_, [this, a = alive_] {
        if (!*a) return;
        state_posted_ = false;
        flush_state();
    });
}

void EditorHub::flush_state() {
    if (!state_dirty_) return;
    state_dirty_ = false;
    std::string params = ask_state_params(broker_.pending());
    for (auto& c : clients_) c->notify("ask/state", params);
}

std::size_t EditorHub::primary_queued_bytes() const {
    std::size_t n = 0;
    for (const auto& c : clients_)
        if (c->primary()) n += c->backlog();
    return n;
}

std::size_t EditorHub::queued_bytes() const {
    std::size_t n = 0;
    for (const auto& c : clients_) n += c->connection().queued_bytes();
    return n;
}

void EditorHub::agent_output(Stream stream, std::string_view text) {
    for (auto& c : clients_) c->output(stream, text);
}

void EditorHub::agent_exit(AgentExit e) {
    // The asks the agent took with it are gone before it is: clients hear the state first.
    flush_state();
    std::string params = "{\"exitCode\":" + (e.signal ? std::string("null") : std::to_string(e.exit_code)) +
                         ",\"signal\":" + (e.signal ? std::to_string(e.signal) : std::string("null")) + "}";
    for (auto& c : clients_) {
        c->report_dropped();
        c->notify("agent/exit", params);
    }
}

}  // namespace askhost
