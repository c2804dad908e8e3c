/**
 * Classes that break the architecture rules on purpose, so {@code DependencyRulesTest} can show
 * that each rule reports violations. Laid out like the real packages under this root: a
 * {@code core}, an {@code edge} and {@code adapters.*}. Never imported by the rules' check of the real code.
 */
package com.agentwallet.archfixture;
