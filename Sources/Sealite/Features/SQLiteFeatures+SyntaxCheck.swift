import Foundation

extension SQLiteFeatures {
  /// Recognizable syntax of capabilities that old SQLite versions lack.
  private static let syntaxPatterns: [(Capability, String)] = [
    (.windowFunctions, #"\bOVER\s*(\(|[A-Za-z_])|\bWINDOW\s+\w+\s+AS\b"#),
    (.returning, #"\bRETURNING\b"#),
    (.upsert, #"\bON\s+CONFLICT\s*(\(|DO\b)"#),
    (.jsonb, #"\bjsonb(_\w+)?\s*\("#),
    (.jsonArrowOperators, #"->>?"#),
    (.jsonFunctions, #"\bjson(_\w+)?\s*\("#),
    (
      .mathFunctions,
      #"\b(acos|acosh|asin|asinh|atan|atan2|atanh|ceil|ceiling|cos|cosh|degrees|exp|floor|ln|log|log10|log2|mod|pi|pow|power|radians|sin|sinh|sqrt|tan|tanh|trunc)\s*\("#
    ),
    (.renameColumn, #"\bRENAME\s+COLUMN\b"#),
    (.dropColumn, #"\bALTER\s+TABLE\b[\s\S]*\bDROP\b"#),
    (.strictTables, #"\)\s*(WITHOUT\s+ROWID\s*,\s*)?STRICT\b"#),
    (
      .generatedColumns,
      #"\bGENERATED\s+ALWAYS\b|\)\s*(STORED|VIRTUAL)\b|\bCREATE\s+TABLE\b[\s\S]*[,(]\s*["`\[]?\w+["`\]]?(\s+\w+)?\s+AS\s*\("#
    ),
    (.fts5, #"\bUSING\s+fts5\b"#),
    (.fts4, #"\bUSING\s+fts4\b"#),
  ]

  /// The first capability the linked SQLite lacks whose syntax `sql` uses,
  /// string literals aside. Used to replace SQLite's syntax error with one that
  /// names the feature and the versions.
  func missingCapability(usedBy sql: String) -> Capability? {
    let code = SQLiteFeatures.removingStringLiterals(sql)
    for (capability, pattern) in SQLiteFeatures.syntaxPatterns where !supports(capability) {
      if code.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil {
        return capability
      }
    }
    return nil
  }

  /// The SQL with the contents of '…' strings removed, so that text values do
  /// not look like syntax.
  static func removingStringLiterals(_ sql: String) -> String {
    var result = ""
    var inString = false
    for character in sql {
      if character == "'" {
        inString.toggle()
        result.append(character)
      } else if !inString {
        result.append(character)
      }
    }
    return result
  }
}
