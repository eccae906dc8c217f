package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated path relative to a project root, components separated by {@code /}. The empty string
 * is the root. At most 4096 UTF-8 bytes and 128 components; no empty, {@code .} or {@code ..}
 * component, no backslash, no NUL, never absolute. Anything else is {@code INVALID_ARGUMENT}, so
 * a path that reaches the file system can only name something below the root.
 */
public final class RelativePath {

    /** Longest accepted path in UTF-8 bytes. */
    public static final int MAX_BYTES = 4096;
    /** Most accepted components. */
    public static final int MAX_COMPONENTS = 128;

    private static final RelativePath ROOT = new RelativePath(List.of());

    private final List<String> components;

    private RelativePath(List<String> components) {
        this.components = List.copyOf(components);
    }

    /** Parses and validates {@code text}; {@code ""} is the root. */
    public static RelativePath parse(String text) {
        if (text == null) {
            throw invalid("path is missing");
        }
        if (text.isEmpty()) {
            return ROOT;
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw invalid("path is longer than " + MAX_BYTES + " bytes");
        }
        if (text.startsWith("/")) {
            throw invalid("path '" + text + "' is absolute; give it relative to the project root (e.g. src/Main.java)");
        }
        List<String> parts = new ArrayList<>();
        int start = 0;
        while (true) {
            int slash = text.indexOf('/', start);
            String part = slash < 0 ? text.substring(start) : text.substring(start, slash);
            checkName(part);
            parts.add(part);
            if (parts.size() > MAX_COMPONENTS) {
                throw invalid("path has more than " + MAX_COMPONENTS + " components");
            }
            if (slash < 0) {
                return new RelativePath(parts);
            }
            start = slash + 1;
        }
    }

    /** The project root itself. */
    public static RelativePath root() {
        return ROOT;
    }

    /** The components from the root down; empty for the root. */
    public List<String> components() {
        return components;
    }

    /** True for the project root. */
    public boolean isRoot() {
        return components.isEmpty();
    }

    /** The containing directory; the root has no parent ({@code INVALID_ARGUMENT}). */
    public RelativePath parent() {
        if (isRoot()) {
            throw invalid("the project root has no parent");
        }
        return components.size() == 1 ? ROOT : new RelativePath(components.subList(0, components.size() - 1));
    }

    /** The last component; {@code ""} for the root. */
    public String name() {
        return isRoot() ? "" : components.get(components.size() - 1);
    }

    /** This path with one more component, validated like {@link #parse}. */
    public RelativePath child(String name) {
        checkName(name);
        List<String> parts = new ArrayList<>(components);
        parts.add(name);
        RelativePath result = new RelativePath(parts);
        if (parts.size() > MAX_COMPONENTS || result.toString().getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw invalid("path is too long");
        }
        return result;
    }

    /** True when this path is {@code other} or lies below it. */
    public boolean startsWith(RelativePath other) {
        return components.size() >= other.components.size()
                && components.subList(0, other.components.size()).equals(other.components);
    }

    /** Validates one path component: non-empty, not {@code .}/{@code ..}, no slash, backslash or NUL. */
    static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw invalid("path has an empty component (a doubled or trailing '/'); remove the extra '/'");
        }
        if (name.equals(".") || name.equals("..")) {
            throw invalid(
                    "path components '.' and '..' are not allowed, so a path cannot leave the project; give it from"
                            + " the project root without them");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c == '\0') {
                throw invalid("path component contains '/', '\\' or NUL");
            }
            if (Character.isSurrogate(c)
                    && !(Character.isHighSurrogate(c)
                            && i + 1 < name.length()
                            && Character.isLowSurrogate(name.charAt(++i)))) {
                throw invalid("path component is not valid Unicode (an unpaired surrogate)");
            }
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > 255) {
            throw invalid("path component is longer than 255 bytes");
        }
    }

    private static LomiException invalid(String message) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, message);
    }

    /** The {@code /}-joined form; {@code ""} for the root. */
    @Override
    public String toString() {
        return String.join("/", components);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelativePath p && components.equals(p.components);
    }

    @Override
    public int hashCode() {
        return components.hashCode();
    }
}
