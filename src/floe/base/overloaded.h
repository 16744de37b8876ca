// Overloaded: one visitor made of several lambdas, for std::visit.
//
//   std::visit(Overloaded{[](const A& a) { ... }, [](const B& b) { ... }}, v);
//
// The deduction guide is required by clang 14 (the fuzz build), which does
// not deduce class template arguments from an aggregate's initializers.

#pragma once

namespace floe {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace floe
