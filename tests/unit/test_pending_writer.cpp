// The pending-questions file's writer (host/store/pending_writer.hpp): changes applied in the
// order they were queued, those queued while it waits for the folder's lock written at once, what
// is queued written before the writer is gone, a failure reported, a broken file never written over.
#define BOOST_TEST_MODULE pending_writer
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "store/fs_util.hpp"
#include "store/pending_file.hpp"
#include "store/pending_writer.hpp"

using namespace askhost;
using namespace askhost::store;
namespace fs = std::filesystem;

namespace {

// A private folder, removed with everything in it.
struct Folder {
    fs::path root;
    Folder() {
        std::string tmpl = (fs::temp_directory_path() / "askhost-writer-XXXXXX").string();
        root = ::mkdtemp(tmpl.data());
    }
    ~Folder() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    fs::path pending() const { return root / ".askhost" / "pending-questions.json"; }
};

Ask ask_of(const std::string& text) {
    Ask a;
    a.id = text;
    a.agent = "test";
    Question q;
    q.question = text;
    a.questions.push_back(q);
    return a;
}

// Adds the question `text` to the file.
PendingWriter::Change add(const std::string& text) {
    return [text](PendingLoad& loaded) {
        add_ask(loaded.file, ask_of(text), "session", "2026-11-27T00:00:00Z");
        return true;
    };
}

// Takes the question `text` out of the file.
PendingWriter::Change remove(const std::string& text) {
    return [text](PendingLoad& loaded) {
        return std::erase_if(loaded.file.questions,
                             [&](const PendingQuestion& p) { return p.question.question == text; }) > 0;
    };
}

std::vector<std::string> questions_in(const fs::path& file) {
    auto loaded = load_pending(file);
    BOOST_REQUIRE_MESSAGE(loaded.status == PendingLoad::Status::Ok, "the file reads: " + loaded.error);
    std::vector<std::string> out;
    for (const auto& q : loaded.file.questions) out.push_back(q.question.question);
    return out;
}

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

BOOST_AUTO_TEST_CASE(changes_are_applied_in_the_order_they_were_queued) {
    Folder f;
    PendingWriter writer(f.pending(), nullptr);
    std::vector<std::string> ran;  // touched only on the writer's thread until flush() returns
    for (int i = 0; i < 40; ++i) {
        const std::string q = "Question " + std::to_string(i) + "?";
        writer.change(add(q), [&ran, q] { ran.push_back(q); });
        // Every third one is taken back at once: a later state never loses to an earlier one.
        if (i % 3 == 0) writer.change(remove(q), [&ran, q] { ran.push_back("-" + q); });
    }
    writer.flush();
    std::vector<std::string> expected, order;
    for (int i = 0; i < 40; ++i) {
        const std::string q = "Question " + std::to_string(i) + "?";
        order.push_back(q);
        if (i % 3 == 0) order.push_back("-" + q);
        else expected.push_back(q);
    }
    BOOST_TEST(questions_in(f.pending()) == expected, boost::test_tools::per_element());
    BOOST_TEST(ran == order, boost::test_tools::per_element());

    // The file is read anew for each write: what another askhost (askhost answer) wrote meanwhile stays.
    auto loaded = load_pending(f.pending());
    loaded.file.questions.front().answer = AnswerSpec{{{"by hand", std::nullopt}}, false};
    BOOST_REQUIRE(!save_pending(f.pending(), loaded.file));
    writer.change(add("One more?"));
    writer.flush();
    auto again = load_pending(f.pending());
    BOOST_REQUIRE(again.status == PendingLoad::Status::Ok);
    BOOST_TEST(again.file.questions.front().answer.has_value());
    BOOST_TEST(again.file.questions.back().question.question == "One more?");

    // No question left: the file goes.
    writer.change([](PendingLoad& l) {
        l.file.questions.clear();
        return true;
    });
    writer.flush();
    BOOST_TEST(!fs::exists(f.pending()));
}

BOOST_AUTO_TEST_CASE(changes_queued_while_it_waits_are_written_at_once) {
    Folder f;
    fs::create_directories(f.pending().parent_path());
    PendingWriter writer(f.pending(), nullptr);
    {
        // Another askhost holds the folder's lock (as `askhost answer` does while it writes).
        DirLock other(f.pending().parent_path());
        BOOST_REQUIRE(other.locked());
        for (int i = 0; i < 10; ++i) writer.change(add("Question " + std::to_string(i) + "?"));
        BOOST_TEST(!fs::exists(f.pending()));  // nothing is written over the other's turn
    }
    writer.flush();
    BOOST_TEST(writer.writes() == 1u);  // ten changes, one write
    BOOST_TEST(questions_in(f.pending()).size() == 10u);
}

BOOST_AUTO_TEST_CASE(what_is_queued_is_written_before_the_writer_is_gone) {
    Folder f;
    {
        PendingWriter writer(f.pending(), nullptr);
        for (int i = 0; i < 25; ++i) writer.change(add("Question " + std::to_string(i) + "?"));
    }
    BOOST_TEST(questions_in(f.pending()).size() == 25u);
    {
        PendingWriter writer(f.pending(), nullptr);
        for (int i = 0; i < 25; ++i) writer.change(remove("Question " + std::to_string(i) + "?"));
    }
    BOOST_TEST(!fs::exists(f.pending()));
}

BOOST_AUTO_TEST_CASE(a_failure_is_reported_and_a_broken_file_is_never_written_over) {
    Folder f;
    // The folder cannot be made: a file stands where it would be.
    std::ofstream(f.root / "taken") << "a file\n";
    std::vector<std::string> reports;  // touched only on the writer's thread until flush() returns
    bool after_ran = false;
    PendingWriter writer(f.root / "taken" / "pending.json", [&](std::string_view m) { reports.emplace_back(m); });
    writer.change(add("Which database?"), [&] { after_ran = true; });
    writer.flush();
    BOOST_REQUIRE_EQUAL(reports.size(), 1u);
    BOOST_TEST(reports[0].find("cannot write the pending-questions file") != std::string::npos, reports[0]);
    BOOST_TEST(reports[0].find("not a directory") != std::string::npos, reports[0]);
    BOOST_TEST(after_ran);  // what waits on the write hears of it

    // A hand edit that does not parse is the person's work: a change that would write is not written.
    fs::create_directories(f.pending().parent_path());
    std::ofstream(f.pending()) << "{\"questions\": [ oops\n";
    PendingWriter second(f.pending(), nullptr);
    std::optional<PendingLoad::Status> seen;
    second.change([&](PendingLoad& l) {
        seen = l.status;
        return true;
    });
    second.flush();
    BOOST_TEST((seen == PendingLoad::Status::Error));
    BOOST_TEST(text_of(f.pending()) == "{\"questions\": [ oops\n");
    BOOST_TEST(second.writes() == 0u);
}

// A process forked while the folder's lock is held (a child between fork and exec; a test's forked
// editor) keeps a copy of its descriptor: the lock must still end when its holder lets go, or every
// later writer waits for that process to end (seen: a question's record left in the file for 10 s).
BOOST_AUTO_TEST_CASE(a_lock_ends_with_its_holder_though_a_forked_process_has_its_descriptor) {
    Folder f;
    fs::create_directories(f.root);
    int hold[2];
    BOOST_REQUIRE(::pipe(hold) == 0);
    pid_t child = -1;
    {
        DirLock mine(f.root);
        BOOST_REQUIRE(mine.locked());
        child = ::fork();
        BOOST_REQUIRE(child >= 0);
        if (child == 0) {  // keeps every descriptor it was given until the test ends it
            ::close(hold[1]);
            char c;
            [[maybe_unused]] auto n = ::read(hold[0], &c, 1);
            ::_exit(0);
        }
    }
    ::close(hold[0]);
    // Another holder, in a process of its own, as another askhost would be: it gets the lock at once.
    pid_t other = ::fork();
    BOOST_REQUIRE(other >= 0);
    if (other == 0) {
        ::alarm(10);  // a lock never had ends this process, and the test fails on its status
        DirLock theirs(f.root);
        ::_exit(theirs.locked() ? 0 : 2);
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(other, &status, 0) == other);
    ::close(hold[1]);  // the first child ends
    ::waitpid(child, nullptr, 0);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
}
