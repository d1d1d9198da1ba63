// What the unit tests that run a real host (HostCore) on a real socket share: a private runtime
// folder and workspace, a host as an editor runs it, and running the loop until a condition holds.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include "frontends/editor/host_core.hpp"
#include "scratch.hpp"

namespace askhost::test {

// A private runtime folder (the hosts' sockets and records), state folder (their journals), config
// folder and workspace, while it lives.
struct HostWorld {
    ScratchDir scratch;  // first, so it is removed last, after the variables are put back
    std::filesystem::path root;
    std::string workspace;
    // The variables set for the world's hosts (their registry, journals and settings in root, not
    // the user's folders), each put back as it was at the end.
    std::vector<std::unique_ptr<EnvVar>> env;
    explicit HostWorld(const std::string& prefix) : scratch(prefix), root(scratch.path) {
        std::filesystem::create_directories(root / "work");
        workspace = std::filesystem::canonical(root / "work").string();
        for (const auto& [var, sub] : {std::pair{"XDG_RUNTIME_DIR", "run"}, std::pair{"XDG_STATE_HOME", "state"},
                                       std::pair{"XDG_CONFIG_HOME", "config"}}) {
            std::filesystem::create_directories(root / sub);
            env.push_back(std::make_unique<EnvVar>(var, (root / sub).c_str()));
        }
    }
};

// A host as an editor runs it, with nobody else to show its asks.
struct TestHost {
    NoAgentControl control{"test"};
    HostCore core;
    TestHost(boost::asio::io_context& io, const std::string& folder) : core(io, control) {
        core.add_folder(folder);
        BOOST_REQUIRE(!core.listen("editor"));
    }
};

// Runs the loop until `done` holds (a guard against a hang: gives up after 10 s).
inline bool run_until(boost::asio::io_context& io, const std::function<bool()>& done) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done() && std::chrono::steady_clock::now() < give_up) {
        io.restart();
        io.run_for(std::chrono::milliseconds(20));
    }
    return done();
}

}  // namespace askhost::test
