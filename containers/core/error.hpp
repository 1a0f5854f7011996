#pragma once
// Error types thrown by warpgraph. Every error names where it happened: a file and line of the
// input (ParseError), the source location of a failed CUDA call (CudaError), or the container
// and capacity that ran out (CapacityError).
#include <cstdint>
#include <stdexcept>
#include <string>

namespace wg {

/// Base of every warpgraph exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input data. what() reads "FILE:LINE: problem" (LINE omitted when 0, e.g. empty file).
class ParseError : public Error {
 public:
  ParseError(std::string file, std::uint64_t line, const std::string& problem)
      : Error(format(file, line, problem)),
        file_(std::move(file)),
        line_(line),
        problem_(problem) {}
  const std::string& file() const noexcept { return file_; }
  std::uint64_t line() const noexcept { return line_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  static std::string format(const std::string& f, std::uint64_t l, const std::string& p) {
    return l ? f + ":" + std::to_string(l) + ": " + p : f + ": " + p;
  }
  std::string file_;
  std::uint64_t line_;
  std::string problem_;
};

/// A container (or allocator) ran out of the capacity it was given.
class CapacityError : public Error {
 public:
  CapacityError(const std::string& container, std::uint64_t capacity, const std::string& detail)
      : Error(container + ": out of capacity (" + std::to_string(capacity) + "): " + detail),
        capacity_(capacity) {}
  std::uint64_t capacity() const noexcept { return capacity_; }

 private:
  std::uint64_t capacity_;
};

/// A CUDA runtime call or kernel launch failed. what() reads "FILE:LINE: CALL: cuda message".
class CudaError : public Error {
 public:
  using Error::Error;
};

/// The caller stopped a long call it had started (datasets::ReadOptions::cancel).
class Cancelled : public Error {
 public:
  using Error::Error;
};

/// A caller broke an API precondition (reserved key, wrong sizes, ...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

}  // namespace wg
