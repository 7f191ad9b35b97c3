package io.github.tablebase.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON this project speaks (manifests, probe answers): maps, lists, strings, numbers, booleans and
 * null. Written here so that the probe library needs no JSON dependency. Objects read back keep their key
 * order; whole numbers come back as Integer, or Long when they do not fit.
 */
public final class Json {
    private final String text;
    private int at;

    private Json(String text) { this.text = text; }

    /** One line of JSON. */
    public static String text(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, -1);
        return out.toString();
    }

    /** Indented by two spaces, for files people read. */
    public static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.append('\n').toString();
    }

    /** Parses one JSON value; malformed text is an IllegalArgumentException saying where. */
    public static Object parse(String text) {
        Json p = new Json(text);
        Object value = p.value();
        p.space();
        if (p.at != text.length()) throw p.error("text after the value");
        return value;
    }

    /** Parses a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        if (parse(text) instanceof Map<?, ?> m) return (Map<String, Object>) m;
        throw new IllegalArgumentException("not a JSON object");
    }

    private static void write(Object v, StringBuilder out, int indent) {
        if (v == null) out.append("null");
        else if (v instanceof String s) string(s, out);
        else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) out.append(v);
        else if (v instanceof Number n) {
            double d = n.doubleValue();
            if (!Double.isFinite(d)) throw new IllegalArgumentException("JSON has no " + d);
            out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) + ".0" : Double.toString(d));
        } else if (v instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                newline(out, indent < 0 ? -1 : indent + 1);
                string(String.valueOf(e.getKey()), out);
                out.append(indent < 0 ? ":" : " : ");
                write(e.getValue(), out, indent < 0 ? -1 : indent + 1);
            }
            if (!map.isEmpty()) newline(out, indent);
            out.append('}');
        } else if (v instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                if (!first) out.append(indent < 0 ? "," : ", ");
                first = false;
                write(item, out, indent);
            }
            out.append(']');
        } else throw new IllegalArgumentException("no JSON form for " + v.getClass().getSimpleName());
    }

    private static void newline(StringBuilder out, int indent) {
        if (indent < 0) return;
        out.append('\n');
        out.append("  ".repeat(indent));
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private Object value() {
        space();
        if (at >= text.length()) throw error("a value is missing");
        char c = text.charAt(at);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': return word("true", Boolean.TRUE);
            case 'f': return word("false", Boolean.FALSE);
            case 'n': return word("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected '" + c + "'");
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) return m;
        do {
            space();
            if (!(at < text.length() && text.charAt(at) == '"')) throw error("a key is missing");
            String key = string();
            space();
            expect(':');
            m.put(key, value());
            space();
        } while (next(','));
        expect('}');
        return m;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek(']')) return list;
        do {
            list.add(value());
            space();
        } while (next(','));
        expect(']');
        return list;
    }

    private String string() {
        StringBuilder s = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) throw error("a string is not closed");
            char c = text.charAt(at++);
            if (c == '"') return s.toString();
            if (c != '\\') {
                s.append(c);
                continue;
            }
            if (at >= text.length()) throw error("a string is not closed");
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> s.append(e);
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) throw error("a \\u escape is cut short");
                    try {
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("a bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw error("a bad escape \\" + e);
            }
        }
    }

    private Object number() {
        int start = at;
        if (text.charAt(at) == '-') at++;
        boolean whole = true;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c >= '0' && c <= '9') at++;
            else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') { whole = false; at++; }
            else break;
        }
        String n = text.substring(start, at);
        try {
            if (whole) {
                long l = Long.parseLong(n);
                return l == (int) l ? (Object) (int) l : (Object) l;
            }
            return Double.parseDouble(n);
        } catch (NumberFormatException e) {
            throw error("a bad number '" + n + "'");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) throw error("unexpected '" + text.charAt(at) + "'");
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) { at++; return true; }
        return false;
    }

    private boolean next(char c) {
        space();
        return peek(c);
    }

    private void expect(char c) {
        space();
        if (!peek(c)) throw error("'" + c + "' expected");
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("malformed JSON at character " + at + ": " + what);
    }
}
