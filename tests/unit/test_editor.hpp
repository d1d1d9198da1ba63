// An editor in the test's own process (clangd's LSPClient, lsp-server's memory connection): an
// EditorHub with a broker and a fake agent, and one client on a MemoryConnection. The test sends
// requests and notifications as the protocol writes them and awaits the host's replies,
// notifications and requests; no sockets, no subprocesses, no clock. Waiting runs the event loop
// until the message comes, and fails the test when the loop has nothing left to do first.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include "core/broker.hpp"
#include "frontends/editor/editor_hub.hpp"
#include "json/json_access.hpp"
#include "transport/framing.hpp"
#include "transport/jsonrpc.hpp"
#include "transport/memory_connection.hpp"

namespace askhost::test {

// What clients may do to the agent, recorded: "ok" starts (pid 4242), anything else is not found;
// a prompt is taken while an agent runs; a stop ends it with SIGTERM.
class FakeAgentControl final : public AgentControl {
public:
    std::vector<LaunchSpec> started;
    std::vector<std::string> adapters, prompts;
    bool running = false;

    Result<int> start_agent(const LaunchSpec& spec, const std::string& adapter) override {
        if (spec.argv.empty() || spec.argv[0] != "ok")
            return Error::not_found("cannot run '" + spec.argv.at(0) + "': not found on PATH");
        started.push_back(spec);
        adapters.push_back(adapter);
        running = true;
        return 4242;
    }
    Status prompt_agent(std::string_view text) override {
        if (!running) return Error::failed("no agent is running");
        prompts.emplace_back(text);
        return {};
    }
    bool stop_agent(std::function<void(AgentExit)> done) override {
        if (!running) return false;
        running = false;
        done(AgentExit{0, 15});
        return true;
    }
};

// One message from the host, parsed.
struct Message {
    std::shared_ptr<rapidjson::Document> doc;
    const rapidjson::Value& operator[](const char* key) const { return (*doc)[key]; }
    bool has(const char* key) const { return doc->HasMember(key); }
    std::string method() const { return has("method") ? std::string(json::str((*doc)["method"])) : std::string(); }
    std::string id_json() const { return has("id") ? to_json((*doc)["id"]) : std::string(); }
    std::string text() const { return to_json(*doc); }
    // result.a.b or error.message, as a string ("" when absent or not a string).
    std::string str(std::initializer_list<const char*> path) const {
        const rapidjson::Value* v = doc.get();
        for (const char* key : path) {
            v = json::member(*v, key);
            if (!v) return {};
        }
        return v->IsString() ? std::string(json::str(*v)) : std::string();
    }
};

// The host's side: a hub, its broker and a fake agent on one event loop.
class TestHost {
    boost::asio::io_context io_;
    FakeAgentControl agent_;
    std::unique_ptr<Broker> broker_ = std::make_unique<Broker>(io_);
    std::unique_ptr<EditorHub> hub_ = std::make_unique<EditorHub>(io_, *broker_, agent_);

public:
    boost::asio::io_context& io = io_;
    Broker& broker = *broker_;
    FakeAgentControl& agent = agent_;
    EditorHub& hub = *hub_;
    std::optional<int> exit_code;
    bool primary_lost = false;

    TestHost() {
        broker.on_state = [this] { hub.state_changed(); };  // as the host wires them
        hub.on_exit = [this](int code) { exit_code = code; };
        hub.on_primary_lost = [this] { primary_lost = true; };
    }
    // Asks still open end without an answer (the test's own variables may be gone), and what the
    // hub and the broker leave on the loop runs before the loop goes.
    ~TestHost() {
        broker.on_state = nullptr;
        broker.withdraw_all();
        hub_.reset();
        drain();
        broker_.reset();
        drain();
    }
    TestHost(const TestHost&) = delete;
    TestHost& operator=(const TestHost&) = delete;

    // Runs one ready handler; false when the loop has nothing left to do.
    bool step() {
        if (io.poll_one()) return true;
        io.restart();
        return io.poll_one() != 0;
    }
    void drain() {
        while (step()) {}
    }
};

// One client of the hub, on a memory connection: the primary editor, or one more (a socket
// client such as askhost attach).
class TestClient {
public:
    std::shared_ptr<MemoryConnection> conn;

    TestClient(TestHost& host, bool primary) : conn(std::make_shared<MemoryConnection>(host.io)), host_(host) {
        conn->on_peer_bytes = [this](std::string_view bytes) {
            decoder_.feed(bytes, [this](FrameDecoder::Event ev) {
                BOOST_REQUIRE_MESSAGE(ev.ok, "the host wrote a bad frame: " + ev.error);
                auto doc = std::make_shared<rapidjson::Document>();
                BOOST_REQUIRE_MESSAGE(!json::parse(*doc, ev.body), "the host wrote invalid JSON: " + ev.body);
                inbox_.push_back({std::move(doc)});
            });
        };
        host.hub.add_client(conn, primary);
    }
    ~TestClient() { conn->on_peer_bytes = nullptr; }
    TestClient(const TestClient&) = delete;
    TestClient& operator=(const TestClient&) = delete;

    // A request; returns its id.
    int request(std::string_view method, std::string_view params_json = {}) {
        const int id = next_id_++;
        send(jsonrpc::request(std::to_string(id), method, params_json));
        return id;
    }
    void notify(std::string_view method, std::string_view params_json = {}) {
        send(jsonrpc::notification(method, params_json));
    }
    // A body as it is (not JSON, a batch, a bad envelope).
    void send(std::string_view body) { conn->peer_write(encode_frame(body)); }
    // The reply to one of the host's requests (ask/show).
    void respond(const Message& request, std::string_view result_json) {
        send(jsonrpc::result(request.id_json(), result_json));
    }
    // The client goes away (its end of the connection closes).
    void close() { conn->peer_close(); }

    // initialize (with these params) and initialized; returns the initialize result.
    Message initialize(std::string_view params_json = R"({"clientInfo":{"name":"test-editor","version":"1.0"}})") {
        Message reply = reply_to(request("initialize", params_json));
        notify("initialized", "{}");
        return reply;
    }

    // The reply (result or error) to request `id`.
    Message reply_to(int id) {
        const std::string want = std::to_string(id);
        return take([&](const Message& m) { return m.method().empty() && m.id_json() == want; },
                    "the reply to " + want);
    }
    // The next notification or request of `method` from the host.
    Message next(std::string_view method) {
        return take([&](const Message& m) { return m.method() == method; }, "a " + std::string(method));
    }
    // Runs the loop until it has nothing more to do; returns what came meanwhile, in order.
    std::vector<Message> settle() {
        host_.drain();
        std::vector<Message> out(inbox_.begin(), inbox_.end());
        inbox_.clear();
        return out;
    }

private:
    // Runs ready handlers until `found` holds a message or nothing is left to run.
    Message take(const std::function<bool(const Message&)>& found, const std::string& what) {
        for (;;) {
            for (auto it = inbox_.begin(); it != inbox_.end(); ++it)
                if (found(*it)) {
                    Message m = std::move(*it);
                    inbox_.erase(it);
                    return m;
                }
            if (!host_.step()) break;
        }
        std::string seen;
        for (const auto& m : inbox_) seen += "\n  " + m.text();
        BOOST_FAIL("waited for " + what + "; the host is idle, and sent" + (seen.empty() ? " nothing" : ":" + seen));
        return {};
    }

    TestHost& host_;
    FrameDecoder decoder_;
    std::deque<Message> inbox_;
    int next_id_ = 1;
};

// The usual case: a host and the editor that started it (more clients: TestClient(editor, false)).
class TestEditor : public TestHost, public TestClient {
public:
    explicit TestEditor(bool primary = true) : TestClient(static_cast<TestHost&>(*this), primary) {}
};

}  // namespace askhost::test
