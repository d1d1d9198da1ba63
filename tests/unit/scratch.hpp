// Scratch state for unit tests, each put back as it was when the object ends: a private folder
// under the temporary folder, and an environment variable set (or unset) for a scope.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include <boost/test/unit_test.hpp>

namespace askhost::test {

// A fresh folder PREFIX-XXXXXX under the temporary folder (the run's own in ./dev test), removed
// with all it holds.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& prefix = "askhost-unit") {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        BOOST_REQUIRE_MESSAGE(::mkdtemp(tmpl.data()) != nullptr, "mkdtemp " << tmpl);
        path = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

// NAME set to VALUE (unset for nullptr) while the object lives; then as it was.
class EnvVar {
public:
    EnvVar(std::string name, const char* value) : name_(std::move(name)) {
        if (const char* was = std::getenv(name_.c_str())) saved_ = was;
        if (value) ::setenv(name_.c_str(), value, 1);
        else ::unsetenv(name_.c_str());
    }
    ~EnvVar() {
        if (saved_) ::setenv(name_.c_str(), saved_->c_str(), 1);
        else ::unsetenv(name_.c_str());
    }
    EnvVar(const EnvVar&) = delete;
    EnvVar& operator=(const EnvVar&) = delete;

private:
    std::string name_;
    std::optional<std::string> saved_;
};

}  // namespace askhost::test
