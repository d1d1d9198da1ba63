#include "frontends/editor/editor_hub.hpp"

#include <algorithm>
#include <map>

#include <boost/asio/post.hpp>

#include "core/call_ticket.hpp"
#include "core/pending_asks.hpp"
#include "frontends/editor/ask_json.hpp"
#include "frontends/editor/editor_protocol.hpp"
#include "json/json_access.hpp"
#include "json/json_text.hpp"
#include "transport/rpc_errors.hpp"

namespace askhost {

namespace {

// Output beyond this, queued for a client that does not read, is dropped (and the drop reported);
// not for the primary editor, for which the agent's output waits instead.
constexpr std::size_t kMaxQueuedOutput = std::size_t{16} * 1024 * 1024;

}  // namespace

class EditorClient final : public Frontend {
public:
    EditorClient(EditorHub& hub, std::shared_ptr<Channel> conn, bool primary)
        : hub_(hub), conn_(std::move(conn)), primary_(primary), bind_(conn_->rpc(), *this) {
        bind_protocol();
        if (primary_)
            conn_->on_written = [this, alive = lifetime_.token()] {
                if (alive && hub_.on_primary_written) hub_.on_primary_written();
            };
        conn_->on_problem = [this](std::string_view p) {
            if (hub_.on_log) hub_.on_log(std::string(primary_ ? "editor" : "client") + ": " + std::string(p));
        };
        conn_->on_closed = [this](std::string_view) {
            // Leave the callback before this client is destroyed.
            boost::asio::post(hub_.io_, [&hub = hub_, self = this, alive = hub_.lifetime_.token()] {
                if (alive) hub.remove_client(self);
            });
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
    Channel& connection() { return *conn_; }

    std::string_view name() const override { return client_name_; }

    void show(const Ask& ask, Done done) override { show_again(std::make_shared<const Ask>(ask), std::move(done), 0); }

    // An answer the host cannot take (a selectedOption that names no option or disagrees with the
    // answer) is refused to the client (ask/answerRefused) and the question shown to it again: no
    // answer is made of it, and none is lost. A client that keeps answering wrong stops being asked.
    static constexpr int kMaxRefusedAnswers = 3;
    void show_again(const std::shared_ptr<const Ask>& ask, Done done, int refused) {
        // A client hears of an ask (ask/state) before it is asked to show it.
        hub_.flush_state();
        const std::string ask_id = ask->id;
        // The ask as ask/state listed it, its text copied whole, unless this client shows less.
        json::RawJson params{shows_all(caps_) ? "{" + hub_.ask_text(*ask) + "}" : ask_show_params(*ask, caps_)};
        // Withdrawn meanwhile (the ticket cancelled): a late reply is dropped.
        CallTicket showing;
        const std::string request = call<ClientOutcome>(
            conn_->rpc(), "ask/show", params,
            showing.reply(
                [this, ask, refused, done = std::move(done), alive = lifetime_.token()](Result<ClientOutcome> shown) {
                    if (!alive || conn_->closed()) return;  // gone: the broker hears it from on_closed
                    open_.erase(ask->id);
                    if (shown) return done(std::move(shown->outcome));
                    const Error& e = shown.error();
                    if (!unreadable(e))
                        return done(Outcome::cancelled("the client could not show the question: " + e.message));
                    if (hub_.on_log)
                        hub_.on_log("client " + client_name_ + " returned an invalid answer: " + e.message);
                    notify("ask/answerRefused", json::to_text(AnswerRefusedParams{ask->id, e.message}));
                    if (refused + 1 < kMaxRefusedAnswers) show_again(ask, done, refused + 1);
                }),
            ClientOutcome{ask, {}});
        showing.on_cancel([this, request, ask_id] {
            conn_->rpc().notify("$/cancelRequest", json::to_text(CancelRequestParams{{request}, ask_id}));
        });
        open_[ask_id] = showing;
    }

    void withdraw(const std::string& ask_id) override {
        auto it = open_.find(ask_id);
        if (it == open_.end()) return;
        CallTicket showing = std::move(it->second);
        open_.erase(it);
        showing.cancel();
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
        if (dropped_) output(Stream::Stderr, dropped_note());
        if (!ready()) {
            keep_early("agent/output", json::to_text(AgentOutputParams{stream, text}));
            return;
        }
        // The whole message is built in one string: the bulk of the bytes is copied once.
        std::string msg = jsonrpc::notification_head("agent/output");
        msg.append(stream == Stream::Stdout ? "{\"stream\":\"stdout\",\"text\":" : "{\"stream\":\"stderr\",\"text\":");
        append_json_text(msg, text);
        msg.append("}}");
        conn_->rpc().send_message(std::move(msg));
    }

    // The agent is done: output dropped since the last note is reported now, or never would be.
    void report_dropped() {
        if (!dropped_ || conn_->closed()) return;
        notify("agent/output", json::to_text(AgentOutputParams{Stream::Stderr, dropped_note()}));
    }

private:
    std::string dropped_note() {
        std::string note =
            "[askhost: " + std::to_string(dropped_) + " bytes of agent output dropped: the client was not reading]\n";
        dropped_ = 0;
        return note;
    }

    // The editor protocol, one line a method (the types: editor/editor_protocol.hpp).
    void bind_protocol() {
        bind_.gate = [this](std::string_view method, const Responder&) -> std::optional<RpcError> {
            if (method == "initialize") return std::nullopt;
            if (!initialize_seen_) return RpcError{rpc_error::server_not_initialized, "initialize first"};
            if (shutdown_) return RpcError{rpc_error::invalid_request, "the server is shutting down"};
            return std::nullopt;
        };
        bind_.method("initialize", &EditorClient::initialize);
        bind_.method("shutdown", &EditorClient::shutdown);
        bind_.method("agent/start", &EditorClient::agent_start);
        bind_.method("agent/prompt", &EditorClient::agent_prompt);
        bind_.method("agent/stop", &EditorClient::agent_stop);
        bind_.method("ask/submit", &EditorClient::ask_submit);
        bind_.notification("initialized", &EditorClient::initialized);
        bind_.notification("workspace/didChangeWorkspaceFolders", &EditorClient::did_change_workspace_folders);
        bind_.notification("exit", &EditorClient::exit_requested);
        bind_.notification("$/cancelRequest", &EditorClient::cancel_request);
        // Other notifications ($/setTrace, ...) need nothing from the host.
    }

    void initialize(const InitializeParams& p, Reply<InitializeResult> reply) {
        if (initialize_seen_) return reply.error(rpc_error::invalid_request, "initialize was already called");
        initialize_seen_ = true;
        client_name_ = !p.client_name.empty() ? p.client_name : primary_ ? "editor" : "client";
        client_version_ = p.client_version;
        read_workspace(p);
        caps_ = p.ask_caps;
        can_show_ = p.show_asks.value_or(can_show_);
        passive_ = p.passive && !primary_;  // the editor that started askhost is always a person
        queued_ = passive_ && p.queued;     // only a viewer is shown the asks behind the one on screen
        reply({hub_.socket_path_});
        if (!folders_.empty() || primary_) workspace_changed();
    }

    void shutdown(const json::Ignored&, Reply<json::Null> reply) {
        shutdown_ = true;
        reply({});
    }

    void agent_start(const AgentStartParams& p, Reply<AgentStartResult> reply) {
        auto pid = hub_.control_.start_agent(p.spec, p.adapter);
        if (!pid) return reply.error(rpc_error::agent_error, pid.error().message);
        reply({*pid});
    }

    void agent_prompt(const AgentPromptParams& p, Reply<json::EmptyObject> reply) {
        if (auto err = hub_.control_.prompt_agent(p.text)) return reply.error(rpc_error::agent_error, err->message);
        reply({});
    }

    void agent_stop(const json::Ignored&, Reply<AgentExit> reply) {
        if (!hub_.control_.stop_agent([reply](AgentExit e) { reply(e); }))
            reply.error(rpc_error::agent_error, "no agent is running");
    }

    // A client asks the person (askhost mcp, the pi extension): the broker shows it like an agent's.
    void ask_submit(const AskSubmitParams& p, Reply<Outcome> reply) {
        auto parsed = submitted_input(p);
        if (auto now = outcome_without_asking(parsed)) return reply(*now);
        auto input = std::get<AskInput>(std::move(parsed));
        Ask ask;
        ask.take_asked(std::move(input));
        ask.agent = p.agent.empty() ? client_name_ : p.agent;
        ask.client = p.client;
        ask.profile = p.profile;
        ask.route = p.route.empty() || p.route == "agent" ? "submit" : p.route;
        ask.cwd = p.cwd;
        // Its ticket is the ask: the outcome takes it out of the queue, and so do $/cancelRequest
        // and the client leaving (which withdraw the ask). A request that takes the place of one
        // still waiting under its id withdraws that one after it is asked.
        const std::string request_id = reply.id_json();
        AskTicket earlier = submitted_.release(request_id);
        submitted_.start(
            request_id, [&](OnOutcome answer) { return hub_.broker_.ask(std::move(ask), std::move(answer)); }, {},
            [reply](const Outcome& o, std::monostate) { reply(o); });
    }

    // The question parts of an ask/submit as one tool input. A part nested deeper than the model
    // would ever accept is refused before it is copied (the copy recurses as deep as it nests).
    static Parsed<AskInput> submitted_input(const AskSubmitParams& p) {
        rapidjson::Document tool(rapidjson::kObjectType);
        const std::pair<const char*, const json::Borrowed*> parts[] = {{"questions", &p.questions},
                                                                       {"metadata", &p.metadata},
                                                                       {"answers", &p.answers},
                                                                       {"annotations", &p.annotations},
                                                                       {"permission", &p.permission}};
        for (const auto& [key, part] : parts) {
            if (!part->value) continue;
            constexpr std::size_t limit = 2 * Limits::max_json_depth;
            if (json::deeper_than(*part->value, limit))
                return Refusal{"invalid_schema", key,
                               std::string(key) + ": nested deeper than " + std::to_string(limit) + " levels"};
            tool.AddMember(rapidjson::Value(key, tool.GetAllocator()),
                           rapidjson::Value(*part->value, tool.GetAllocator()), tool.GetAllocator());
        }
        return parse_ask_input(tool, p.profile);
    }

    void withdraw_submitted() { submitted_.clear(); }

    void initialized(const json::Ignored&) {
        if (!initialize_seen_ || initialized_) return;
        initialized_ = true;
        // What the agent said before the client was ready (it starts with askhost) comes first.
        auto early = std::move(early_);
        early_.clear();
        early_bytes_ = 0;
        for (const auto& [m, p] : early)
            if (m != "ask/state") conn_->rpc().notify(m, p);
        notify("ask/state", hub_.state_params());
        if (can_show_) {
            showing_frontend_ = true;
            if (passive_) hub_.broker_.add_viewer(*this, queued_);
            else hub_.broker_.add_frontend(*this);
        }
    }

    void did_change_workspace_folders(const DidChangeWorkspaceFoldersParams& p) {
        if (!initialize_seen_ || !p.event) return;
        auto removed = folders_from(p.event->removed);
        std::erase_if(folders_, [&](const WorkspaceFolder& f) {
            return std::any_of(removed.begin(), removed.end(),
                               [&](const WorkspaceFolder& r) { return r.path == f.path; });
        });
        for (auto& f : folders_from(p.event->added)) add_folder(std::move(f));
        workspace_changed();
    }

    void exit_requested(const json::Ignored&) {
        said_exit_ = true;
        int code = shutdown_ ? 0 : 1;
        if (primary_ && hub_.on_exit) hub_.on_exit(code);
        conn_->close("exit");
    }

    // The client no longer wants the answer to one of its ask/submit requests.
    void cancel_request(const CancelParams& p) { submitted_.take(p.id.json); }

    // LSP's workspaceFolders (or rootUri when they are absent): file:// folders only.
    void read_workspace(const InitializeParams& p) {
        if (p.workspace_folders) {
            for (auto& f : folders_from(*p.workspace_folders)) add_folder(std::move(f));
            return;
        }
        if (auto path = path_from_file_uri(p.root_uri)) add_folder(folder_from_path(*path));
    }

    static std::vector<WorkspaceFolder> folders_from(const std::vector<WorkspaceFolderParam>& list) {
        std::vector<WorkspaceFolder> out;
        for (const auto& f : list) {
            if (out.size() >= kMaxFolders) break;
            auto path = path_from_file_uri(f.uri);
            if (!path) continue;
            WorkspaceFolder wf = folder_from_path(*path);
            wf.uri = f.uri;
            if (!f.name.empty()) wf.name = f.name;
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
    std::shared_ptr<Channel> conn_;
    bool primary_;
    RpcBinder<EditorClient> bind_;
    bool initialize_seen_ = false, initialized_ = false, shutdown_ = false, said_exit_ = false;
    bool can_show_ = true, showing_frontend_ = false, passive_ = false, queued_ = false;
    ClientAskCaps caps_;
    std::string client_name_ = "client";
    std::string client_version_;
    std::vector<WorkspaceFolder> folders_;
    std::map<std::string, CallTicket> open_;  // ask id -> its ask/show call
    PendingAsks<> submitted_;                 // by ask/submit request id (JSON)
    std::size_t dropped_ = 0;
    Lifetime lifetime_;

public:
    void mark_dead() { lifetime_.end(); }
    const std::vector<WorkspaceFolder>& folders() const { return folders_; }
    const std::string& client_name() const { return client_name_; }
    const std::string& client_version() const { return client_version_; }
    bool initialize_seen() const { return initialize_seen_; }
    bool passive() const { return passive_; }
    bool said_exit() const { return said_exit_; }
};

EditorHub::EditorHub(boost::asio::io_context& io, Broker& broker, AgentControl& control)
    : io_(io), broker_(broker), control_(control) {}

EditorHub::~EditorHub() {
    lifetime_.end();
    for (auto& c : clients_) c->mark_dead();
}

void EditorHub::add_client(std::shared_ptr<Channel> connection, bool primary) {
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

std::size_t EditorHub::client_count() const {
    return static_cast<std::size_t>(
        std::count_if(clients_.begin(), clients_.end(), [](const auto& c) { return !c->passive(); }));
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
    boost::asio::post(io_, [this, alive = lifetime_.token()] {
        if (!alive) return;
        state_posted_ = false;
        flush_state();
    });
}

void EditorHub::flush_state() {
    if (!state_dirty_) return;
    state_dirty_ = false;
    std::string params = state_params();
    for (auto& c : clients_) c->notify("ask/state", params);
}

const std::string& EditorHub::ask_text(const Ask& ask) {
    auto it = ask_texts_.find(ask.id);
    if (it == ask_texts_.end()) it = ask_texts_.emplace(ask.id, ask_members_text(ask)).first;
    return it->second;
}

std::string EditorHub::state_params() {
    const std::vector<const Ask*> pending = broker_.pending();
    std::vector<std::string_view> members;
    members.reserve(pending.size());
    for (const Ask* a : pending) members.push_back(ask_text(*a));
    std::string params = ask_state_params(members);
    if (ask_texts_.size() > pending.size()) {  // some were answered or withdrawn
        std::unordered_map<std::string, std::string> kept;
        for (const Ask* a : pending) kept.emplace(a->id, std::move(ask_texts_[a->id]));
        ask_texts_ = std::move(kept);
    }
    return params;
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
    const std::string params = json::to_text(e);
    for (auto& c : clients_) {
        c->report_dropped();
        c->notify("agent/exit", params);
    }
}

}  // namespace askhost
