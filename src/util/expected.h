// Expected<T>: the result of an operation that fails at most once (read a file, parse one document,
// write a file atomically): a value, or one error. Diags (util/diag.h) is for the other kind of
// operation, the one that reports every mistake it finds (validating an inventory).
//
// A small stand-in for C++23 std::expected, with the same vocabulary (has_value, value, error,
// unexpected) so that moving to std::expected later is a rename.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace fabricctl {

/// The error half of an Expected, to construct one: `return unexpected("no such file");`.
template <typename E>
struct Unexpected {
  E error;
};

template <typename E>
Unexpected<std::decay_t<E>> unexpected(E&& error) {
  return {std::forward<E>(error)};
}
inline Unexpected<std::string> unexpected(const char* error) { return {std::string(error)}; }

/// Thrown by Expected::value() when there is no value: reading a value that is not there is a bug,
/// and bugs end in the internal-error exit path (src/cli/main.cpp), never in a wrong answer.
class BadExpectedAccess : public std::logic_error {
 public:
  explicit BadExpectedAccess(const std::string& error)
      : std::logic_error("value of a failed operation read: " + error) {}
};

/// A value of type T, or an error of type E (by default one lowercase message line).
/// [[nodiscard]]: ignoring whether a file write worked is exactly the bug this type exists to stop.
template <typename T, typename E = std::string>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  template <typename G>
  Expected(Unexpected<G> u) : v_(std::in_place_index<1>, E(std::move(u.error))) {}  // NOLINT

  [[nodiscard]] bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  [[nodiscard]] T& value() & {
    check();
    return std::get<0>(v_);
  }
  [[nodiscard]] const T& value() const& {
    check();
    return std::get<0>(v_);
  }
  [[nodiscard]] T&& value() && {
    check();
    return std::get<0>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; only valid when !has_value().
  [[nodiscard]] const E& error() const& {
    if (has_value()) throw std::logic_error("error of a successful operation read");
    return std::get<1>(v_);
  }
  [[nodiscard]] E&& error() && {
    if (has_value()) throw std::logic_error("error of a successful operation read");
    return std::get<1>(std::move(v_));
  }

 private:
  void check() const {
    if (!has_value()) {
      if constexpr (std::is_convertible_v<const E&, std::string>) throw BadExpectedAccess(std::get<1>(v_));
      else throw BadExpectedAccess("(error not printable)");
    }
  }

  std::variant<T, E> v_;
};

/// An operation that yields nothing but can fail: `Expected<void>` is either success or an error.
template <typename E>
class [[nodiscard]] Expected<void, E> {
 public:
  Expected() = default;
  template <typename G>
  Expected(Unexpected<G> u) : error_(E(std::move(u.error))), failed_(true) {}  // NOLINT

  [[nodiscard]] bool has_value() const { return !failed_; }
  explicit operator bool() const { return has_value(); }
  /// Throws BadExpectedAccess when the operation failed.
  void value() const {
    if (failed_) {
      if constexpr (std::is_convertible_v<const E&, std::string>) throw BadExpectedAccess(error_);
      else throw BadExpectedAccess("(error not printable)");
    }
  }
  [[nodiscard]] const E& error() const& {
    if (!failed_) throw std::logic_error("error of a successful operation read");
    return error_;
  }

 private:
  E error_{};
  bool failed_ = false;
};

}  // namespace fabricctl
