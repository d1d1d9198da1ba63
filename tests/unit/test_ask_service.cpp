// The ask service (host/service/ask_service.hpp) with real hosts on real sockets in a private
// runtime folder: an ask relayed to the workspace's host; one that goes nowhere; one that waits in
// a host of the service's own, answered by a person attached to it; and one that waits seeking a
// person and is withdrawn there when an editor's host opens the workspace and answers first, or
// answered in its pending-questions file. ask_and_wait, the one set-up of the hooks and OpenCode's
// plugin: the outcome, nothing when asked nowhere, and a wait ended by its watch withdrawn.
#define BOOST_TEST_MODULE ask_service
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <csignal>

#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "fake_frontend.hpp"
#include "frontends/editor/host_client.hpp"
#include "frontends/editor/host_core.hpp"
#include "frontends/editor/registry.hpp"
#include "frontends/editor/socket_listener.hpp"
#include "host_world.hpp"
#include "service/ask_and_wait.hpp"
#include "service/ask_service.hpp"
#include "store/fs_util.hpp"
#include "store/pending_file.hpp"
#include "transport/connection.hpp"

using namespace askhost;
using askhost::testing::FakeFrontend;
namespace fs = std::filesystem;

namespace {

using test::EnvVar;  // scratch.hpp

// A private folder with the runtime folder (registry, sockets), the user's config (no tmux
// popups), the journals and the workspace in it; nothing of the machine's own: no tmux, no notifications, no
// terminal dialog (the terminal is taken as an agent's).
struct World {
    test::ScratchDir scratch{"askhost-service"};  // first, so it is removed last
    fs::path root = scratch.path;
    std::string workspace;
    std::unique_ptr<EnvVar> env[9];
    World() {
        fs::create_directories(root / "run");
        fs::create_directories(root / "state");
        fs::create_directories(root / "config" / "askhost");
        fs::create_directories(root / "work" / "sub");
        std::ofstream(root / "config" / "askhost" / "config") << "tmux-popup = false\n";
        workspace = fs::canonical(root / "work").string();
        const std::string run = (root / "run").string(), config = (root / "config").string();
        env[0] = std::make_unique<EnvVar>("XDG_RUNTIME_DIR", run.c_str());
        env[1] = std::make_unique<EnvVar>("XDG_CONFIG_HOME", config.c_str());
        env[2] = std::make_unique<EnvVar>("ASKHOST_SOCKET", nullptr);
        env[3] = std::make_unique<EnvVar>("TMUX", nullptr);
        env[4] = std::make_unique<EnvVar>("TMUX_PANE", nullptr);
        env[5] = std::make_unique<EnvVar>("CLAUDE_CODE_ENTRYPOINT", "cli");
        env[6] = std::make_unique<EnvVar>("PATH", "/nonexistent");
        env[7] = std::make_unique<EnvVar>("TERM", "dumb");
        env[8] = std::make_unique<EnvVar>("XDG_STATE_HOME", (root / "state").c_str());
    }
    std::string pending_file() const { return (root / "work" / "pending.json").string(); }
};

using test::run_until;  // host_world.hpp

Ask database_ask() {
    Ask a;
    a.questions.push_back(Question{"Which database?", "Database", {{"PostgreSQL", "", {}}, {"SQLite", "", {}}}, false});
    a.agent = "test";
    return a;
}

Outcome sqlite() {
    Answer a;
    a.question = "Which database?";
    a.values = {"SQLite"};
    a.selected_option = "SQLite";
    return Outcome::answered({a});
}

// A host as an editor runs it: its workspace is the folder, its face a FakeFrontend.
struct EditorHost {
    NoAgentControl control{"editor"};
    HostCore core;
    FakeFrontend face{"editor"};
    EditorHost(boost::asio::io_context& io, const std::string& folder) : core(io, control) {
        core.broker().add_frontend(face);
        core.add_folder(folder);
        BOOST_REQUIRE(!core.listen("editor"));
    }
    ~EditorHost() { core.broker().remove_frontend(face, false); }
};

// The same in a process of its own (a process has one host: its socket and record are named by
// its pid), whose face answers SQLite to whatever it is shown. Killed and reaped when it goes.
struct EditorProcess {
    pid_t pid = -1;
    explicit EditorProcess(const std::string& folder) {
        int ready[2];
        BOOST_REQUIRE(::pipe(ready) == 0);
        pid = ::fork();
        BOOST_REQUIRE(pid >= 0);
        if (pid == 0) {
            ::close(ready[0]);
            boost::asio::io_context io;
            struct Answering final : Frontend {
                boost::asio::io_context& io;
                explicit Answering(boost::asio::io_context& i) : io(i) {}
                std::string_view name() const override { return "editor"; }
                void show(const Ask&, Done done) override {
                    boost::asio::post(io, [done = std::move(done)] { done(sqlite()); });
                }
                void withdraw(const std::string&) override {}
            } face(io);
            NoAgentControl control{"editor"};
            HostCore core(io, control);
            core.broker().add_frontend(face);
            core.add_folder(folder);
            if (core.listen("editor")) ::_exit(1);
            [[maybe_unused]] auto n = ::write(ready[1], "r", 1);
            auto busy = boost::asio::make_work_guard(io);
            io.run();
            ::_exit(0);
        }
        ::close(ready[1]);
        char c = 0;
        const bool up = ::read(ready[0], &c, 1) == 1;
        ::close(ready[0]);
        BOOST_REQUIRE(up);
    }
    ~EditorProcess() {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    EditorProcess(const EditorProcess&) = delete;
    EditorProcess& operator=(const EditorProcess&) = delete;
};

AskServiceOptions options_for(const World& w, Alone alone) {
    AskServiceOptions o;
    o.who = "askhost test";
    o.kind = alone == Alone::Beside ? "hook" : "mcp";
    o.cwd = w.workspace + "/sub";
    o.alone = alone;
    o.pending_file = w.pending_file();
    return o;
}

std::string kind_of(const Outcome& o) { return std::string(outcome_kind_name(o.kind)); }

}  // namespace

BOOST_AUTO_TEST_CASE(an_ask_goes_to_the_host_whose_workspace_holds_the_directory) {
    World w;
    boost::asio::io_context io;
    EditorHost editor(io, w.workspace);
    AskService service(io, options_for(w, Alone::Decline));
    std::optional<Outcome> got;
    auto asking = service.ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_TEST(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Host));
    BOOST_REQUIRE(run_until(io, [&] { return !editor.face.open.empty(); }));
    editor.face.answer(editor.face.open.begin()->first, sqlite());
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
}

BOOST_AUTO_TEST_CASE(withdrawing_a_relayed_ask_closes_it_in_the_hosts_face) {
    World w;
    boost::asio::io_context io;
    EditorHost editor(io, w.workspace);
    AskService service(io, options_for(w, Alone::Decline));
    bool replied = false;
    auto asking = service.ask(database_ask(), [&](Outcome) { replied = true; });
    BOOST_REQUIRE(run_until(io, [&] { return !editor.face.open.empty(); }));
    asking.withdraw();
    BOOST_REQUIRE(run_until(io, [&] { return !editor.face.withdrawn.empty() && service.owed() == 0; }));
    BOOST_TEST(editor.face.open.empty());
    BOOST_TEST(!replied);
}

BOOST_AUTO_TEST_CASE(with_no_host_a_declining_entry_point_asks_nowhere) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Decline));
    bool replied = false;
    auto asking = service.ask(database_ask(), [&](Outcome) { replied = true; });
    BOOST_TEST(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Nowhere));
    BOOST_TEST(!asking.withdraw);
    io.restart();
    io.run_for(std::chrono::milliseconds(50));
    BOOST_TEST(!replied);
    BOOST_TEST(!find_host(w.workspace + "/sub", "", true).has_value());
}

BOOST_AUTO_TEST_CASE(with_no_host_it_becomes_one_that_a_person_attached_to_it_answers) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Beside));
    std::optional<Outcome> got;
    auto asking = service.ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Own));
    // Registered for the directory as a host that waits (askhost attach finds it; agents do not).
    BOOST_TEST(!find_host(w.workspace + "/sub", "").has_value());
    auto found = find_host(w.workspace + "/sub", "", true);
    BOOST_REQUIRE(found.has_value());
    BOOST_REQUIRE(found->record.has_value());
    BOOST_TEST(found->record->kind == "hook");

    // A person attaches (as askhost attach does) and answers the ask/show.
    auto fd = connect_socket(found->socket);
    BOOST_REQUIRE(fd.has_value());
    auto person = std::make_shared<Connection>(io, *fd, ::dup(*fd));
    std::string shown;
    person->rpc().on_request = [&](std::string_view method, const rapidjson::Value&, Responder reply) {
        shown = std::string(method);
        reply.result(
            R"({"answered":true,"answers":[{"question":"Which database?","answer":"SQLite","selectedOption":"SQLite","wasCustom":false}]})");
    };
    person->start();
    std::optional<Status> greeted;
    greet_host(person->rpc(), "a person", ClientRole::Person, [&](const Status& s) { greeted = s; });
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(greeted.has_value());
    BOOST_TEST(!greeted->has_value());
    BOOST_TEST(shown == "ask/show");
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
    person->close("done");
}

BOOST_AUTO_TEST_CASE(a_seeking_host_is_withdrawn_when_the_workspaces_host_answers_first) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Seek));
    std::optional<Outcome> got;
    auto asking = service.ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Own));
    // Waiting: the pending-questions file records it, queued once the clients have had the
    // ask/show (a turn later), written by the writer's thread.
    BOOST_TEST(!fs::exists(w.pending_file()));
    BOOST_TEST(run_until(io, [&] { return fs::exists(w.pending_file()); }));

    // An editor opens the workspace (in a process of its own): the question is shown there as
    // well, and answered there.
    EditorProcess editor(w.workspace);
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
    // Withdrawn from its other faces: the record leaves the file (the writer's thread removes it).
    BOOST_TEST(run_until(io, [&] { return !fs::exists(w.pending_file()); }));
}

BOOST_AUTO_TEST_CASE(the_agents_own_form_comes_before_a_host_of_its_own_and_an_unread_one_waits_there) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Seek));
    // A form that a person answers.
    int forms = 0;
    ClientForm answered{"client", [&](const Ask&, std::function<void(Outcome)> reply) {
                            ++forms;
                            boost::asio::post(io, [reply] { reply(sqlite()); });
                            return std::function<void()>([] {});
                        }};
    std::optional<Outcome> got;
    auto asking = service.ask(
        database_ask(), [&](Outcome o) { got = std::move(o); }, &answered);
    BOOST_TEST(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Form));
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(!find_host(w.workspace + "/sub", "", true).has_value());  // no host of its own was needed

    // A form declined at once was never read: the question waits in a host of its own.
    ClientForm declined{"client", [&](const Ask&, std::function<void(Outcome)> reply) {
                            ++forms;
                            boost::asio::post(io, [reply] { reply(Outcome::cancelled("declined")); });
                            return std::function<void()>([] {});
                        }};
    got.reset();
    auto second = service.ask(
        database_ask(), [&](Outcome o) { got = std::move(o); }, &declined);
    BOOST_REQUIRE(run_until(io, [&] { return fs::exists(w.pending_file()); }));
    BOOST_TEST(forms == 2);
    BOOST_TEST(!got.has_value());
    BOOST_TEST(find_host(w.workspace + "/sub", "", true).has_value());
    second.withdraw();
    BOOST_REQUIRE(run_until(io, [&] { return !fs::exists(w.pending_file()); }));
    BOOST_TEST(!got.has_value());
}

BOOST_AUTO_TEST_CASE(a_withdrawn_form_is_cancelled_once_and_its_late_reply_goes_nowhere) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Seek));
    int cancels = 0;
    std::function<void(Outcome)> form_reply;
    ClientForm form{"client", [&](const Ask&, std::function<void(Outcome)> reply) {
                        form_reply = std::move(reply);
                        return std::function<void()>([&] { ++cancels; });
                    }};
    std::optional<Outcome> got;
    auto asking = service.ask(
        database_ask(), [&](Outcome o) { got = std::move(o); }, &form);
    BOOST_REQUIRE(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Form));
    asking.withdraw();
    asking.withdraw();
    BOOST_TEST(cancels == 1);
    // A decline this soon would move a question still asked to a host of its own; this one is gone.
    BOOST_REQUIRE(form_reply);
    form_reply(Outcome::cancelled("declined"));
    io.poll();
    BOOST_TEST(!got.has_value());
    BOOST_TEST(!find_host(w.workspace + "/sub", "", true).has_value());
    BOOST_TEST(cancels == 1);
}

BOOST_AUTO_TEST_CASE(a_seeking_host_takes_the_answer_given_in_the_pending_file) {
    World w;
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Seek));
    std::optional<Outcome> got;
    auto asking = service.ask(database_ask(), [&](Outcome o) { got = std::move(o); });
    BOOST_REQUIRE(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Own));
    BOOST_REQUIRE(run_until(io, [&] { return fs::exists(w.pending_file()); }));
    {
        // The person answers in the file, as `askhost answer` does: under the folder's lock.
        store::DirLock lock(fs::path(w.pending_file()).parent_path());
        auto loaded = store::load_pending(w.pending_file());
        BOOST_REQUIRE(loaded.status == store::PendingLoad::Status::Ok);
        BOOST_REQUIRE_EQUAL(loaded.file.questions.size(), 1u);
        loaded.file.questions[0].answer = store::AnswerSpec{{{"SQLite", std::nullopt}}, false};
        BOOST_REQUIRE(!store::save_pending(w.pending_file(), loaded.file));
    }
    // Taken at the next poll (on the writer's thread), handed over on the loop; the used entries
    // left the file before the answer did.
    BOOST_REQUIRE(run_until(io, [&] { return got.has_value(); }));
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
    BOOST_TEST(!fs::exists(w.pending_file()));
}

BOOST_AUTO_TEST_CASE(a_seeking_host_sets_a_broken_pending_file_aside_and_records_the_question_anew) {
    World w;
    const fs::path file = w.pending_file();
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "{\"questions\": [";  // the person's half-edited file
    boost::asio::io_context io;
    AskService service(io, options_for(w, Alone::Seek));
    auto asking = service.ask(database_ask(), [](Outcome) {});
    BOOST_REQUIRE(static_cast<int>(asking.where) == static_cast<int>(AskService::Asking::Where::Own));
    // Kept beside as pending.json.broken-<ms> (as the print frontend does), and the question in a new file.
    auto set_aside = [&] {
        for (const auto& e : fs::directory_iterator(file.parent_path()))
            if (e.path().filename().string().rfind("pending.json.broken-", 0) == 0) return true;
        return false;
    };
    BOOST_REQUIRE(run_until(
        io, [&] { return set_aside() && store::load_pending(file).status == store::PendingLoad::Status::Ok; }));
    BOOST_TEST(store::load_pending(file).file.questions.size() == 1u);
    asking.withdraw();
}

BOOST_AUTO_TEST_CASE(ask_and_wait_gives_the_workspaces_hosts_outcome) {
    World w;
    EditorProcess editor(w.workspace);
    Ask ask = database_ask();
    ask.cwd = w.workspace + "/sub";
    bool watched = false;
    auto got = ask_and_wait(ask, {.service = {.who = "askhost test", .kind = "hook", .alone = Alone::Decline},
                                  .watch = [&](boost::asio::io_context&, EndWait) {
                                      watched = true;
                                      return std::shared_ptr<void>();
                                  }});
    BOOST_REQUIRE(got.has_value());
    BOOST_TEST(kind_of(*got) == "answered");
    BOOST_TEST(got->answers.at(0).values.at(0) == "SQLite");
    BOOST_TEST(watched);
}

BOOST_AUTO_TEST_CASE(ask_and_wait_asked_nowhere_gives_nothing_at_once_and_sets_no_watch) {
    World w;
    Ask ask = database_ask();
    ask.cwd = w.workspace + "/sub";
    bool watched = false;
    auto got = ask_and_wait(ask, {.service = {.who = "askhost test", .kind = "hook", .alone = Alone::Decline},
                                  .watch = [&](boost::asio::io_context&, EndWait) {
                                      watched = true;
                                      return std::shared_ptr<void>();
                                  }});
    BOOST_TEST(!got.has_value());
    BOOST_TEST(!watched);
}

BOOST_AUTO_TEST_CASE(ask_and_wait_ended_by_its_watch_withdraws_the_ask_and_gives_nothing) {
    World w;
    Ask ask = database_ask();
    ask.cwd = w.workspace + "/sub";
    // A host of its own that waits beside the agent (no person comes): the watch ends the wait, as
    // a signal or the agent gone would; the host of its own is gone with it.
    auto got = ask_and_wait(
        ask,
        {.service = {.who = "askhost test", .kind = "hook", .alone = Alone::Beside, .pending_file = w.pending_file()},
         .watch = [&](boost::asio::io_context& io, EndWait end) {
             auto timer = std::make_shared<boost::asio::steady_timer>(io);
             timer->expires_after(std::chrono::milliseconds(50));
             timer->async_wait([end](const boost::system::error_code& ec) {
                 if (!ec) end("the agent is gone");
             });
             return std::shared_ptr<void>(timer);
         }});
    BOOST_TEST(!got.has_value());
    BOOST_TEST(!find_host(w.workspace + "/sub", "", true).has_value());
}
