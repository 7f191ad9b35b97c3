package io.github.tablebase.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of a file of Spark SQL: {@code --} comments dropped, split at the semicolons that end statements,
 * quoted text ({@code '...'}, {@code "..."}, {@code `...`}) kept as it is, semicolons and dashes included.
 */
final class SqlScript {
    private SqlScript() {}

    static List<String> statements(String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && i + 1 < text.length()) current.append(text.charAt(++i));
                else if (c == quote) quote = 0;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                current.append(c);
            } else if (c == '-' && i + 1 < text.length() && text.charAt(i + 1) == '-') {
                while (i + 1 < text.length() && text.charAt(i + 1) != '\n') i++; // to the end of the line
            } else if (c == ';') {
                add(statements, current);
            } else {
                current.append(c);
            }
        }
        if (quote != 0) throw new IllegalArgumentException("a quote " + quote + " is never closed");
        add(statements, current);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder current) {
        String s = current.toString().strip();
        if (!s.isEmpty()) statements.add(s);
        current.setLength(0);
    }
}
