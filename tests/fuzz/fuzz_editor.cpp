// JSON-RPC dispatch as a client reaches it: bytes on a connection to the editor hub, which frames
// them, parses them, answers requests, shows a pending ask and takes the client's answer. The
// connection is in memory (no socket pair, no system calls): the hub cannot tell, and a run
// costs what the hub does, not what the kernel does.
// Input: a first byte 'R' sends the rest as a raw stream; otherwise each line after the first
// byte is one message body, framed here (so the fuzzer spends its time on the JSON).
// Everything the host writes back must be framed, valid JSON; the ask ends at most once.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "core/broker.hpp"
#include "frontends/editor/editor_hub.hpp"
#include "fuzz.hpp"
#include "oracle.hpp"
#include "transport/framing.hpp"
#include "transport/memory_connection.hpp"

using namespace askhost;

namespace {

class NoAgent final : public AgentControl {
public:
    Result<int> start_agent(const LaunchSpec& spec, const std::string&) override {
        if (spec.argv.size() == 1 && spec.argv[0] == "ok") return 4242;
        return Error::failed("no agents in the fuzzer");
    }
    Status prompt_agent(std::string_view) override { return Error::failed("no agent"); }
    bool stop_agent(std::function<void(AgentExit)> done) override {
        done(AgentExit{0, 15});
        return true;
    }
};

std::string input_stream(std::string_view in) {
    if (!in.empty() && in.front() == 'R') return std::string(in.substr(1));
    if (!in.empty()) in.remove_prefix(1);
    std::string out;
    while (!in.empty()) {
        auto nl = in.find('\n');
        out += encode_frame(in.substr(0, nl));
        in.remove_prefix(nl == std::string_view::npos ? in.size() : nl + 1);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string stream = input_stream({reinterpret_cast<const char*>(data), size});

    // One event loop for the whole run, as a host has; each input gets its own connection.
    static boost::asio::io_context io;
    io.restart();
    Broker broker(io);
    NoAgent control;
    EditorHub hub(io, broker, control);
    int outcomes = 0;
    Ask ask;
    ask.agent = "fuzz";
    ask.questions.push_back(
        {"Which database?", "Database", {{"PostgreSQL", "", std::nullopt}, {"SQLite", "", std::nullopt}}, false});
    ask.questions.push_back({"Name?", "", {}, false});
    // Held to the end, so the asks wait whatever the client does.
    const AskTicket first = broker.ask(ask, [&](Outcome) { ++outcomes; });
    const AskTicket second = broker.ask(ask, [&](Outcome) { ++outcomes; });

    const bool primary = size > 0 && (data[0] & 2);
    bool exited = false;
    hub.on_exit = [&](int) { exited = true; };
    hub.on_primary_lost = [&] { exited = true; };
    // The peer: reads (and checks) everything the host writes until the host is done.
    auto conn = std::make_shared<MemoryConnection>(io);
    OracleFrames replies;
    conn->on_peer_bytes = [&](std::string_view bytes) {
        if (!replies.feed(bytes)) std::fprintf(stderr, "%s\n", replies.error().c_str());
        FUZZ_CHECK(replies.error().empty());
    };
    hub.add_client(conn, primary);
    // After one exchange, a second round of state and output reaches the client too.
    hub.agent_output(Stream::Stdout, "out\xff\n");
    // The input as the agent's output too: every byte must come out as valid JSON text.
    hub.agent_output(Stream::Stderr,
                     std::string_view(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 4096)));
    hub.state_changed();

    // The peer writes the input, then closes its end.
    conn->peer_write(stream);
    conn->peer_close();
    io.run();
    FUZZ_CHECK(outcomes <= 2);
    FUZZ_CHECK(hub.client_count() == 0);
    FUZZ_CHECK(replies.whole());
    (void)exited;
    return 0;
}
