package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A search include/exclude glob over project-relative paths: {@code *} and {@code ?} stay within one
 * component, {@code **} crosses components ({@code **}{@code /} may match nothing), {@code [abc]},
 * {@code [!a-z]}, {@code {a,b}} and {@code \} escapes. A glob without {@code /} matches the last
 * component (the file or directory name) anywhere.
 *
 * <p>Matching runs a compiled automaton over the subject once, tracking every state at the same
 * time: at most (glob length × 3) states per character, so it takes linear time in the subject
 * whatever the glob (no backtracking; F4 of the 2026-12-01 review).
 */
final class Glob {

    static final int MAX_LENGTH = 512;

    private static final int LITERAL = 0;
    private static final int ONE_IN_COMPONENT = 1;
    private static final int ANY_ONE = 2;
    private static final int CLASS = 3;
    private static final int SPLIT = 4;
    private static final int MATCH = 5;

    /** One automaton state; {@code out}/{@code alt} index other states (-1: none). */
    private static final class State {
        final int kind;
        final char literal;
        final @Nullable CharClass characters;
        int out = -1;
        int alt = -1;

        State(int kind, char literal, @Nullable CharClass characters) {
            this.kind = kind;
            this.literal = literal;
            this.characters = characters;
        }
    }

    /** A bracket expression: single characters and ranges, possibly negated (never matching {@code /}). */
    private record CharClass(String singles, String ranges, boolean negate) {
        boolean contains(char c) {
            if (c == '/') {
                return false;
            }
            boolean in = singles.indexOf(c) >= 0;
            for (int r = 0; !in && r < ranges.length(); r += 2) {
                in = c >= ranges.charAt(r) && c <= ranges.charAt(r + 1);
            }
            return in != negate;
        }
    }

    private final List<State> states = new ArrayList<>();
    private final String text;
    private int start;
    private final boolean nameOnly;

    private Glob(String text) {
        this.text = text;
        this.nameOnly = text.indexOf('/') < 0;
    }

    /** Compiles {@code glob}; a malformed one is {@code INVALID_ARGUMENT}. */
    static Glob compile(String glob) {
        if (glob == null || glob.isEmpty() || glob.length() > MAX_LENGTH) {
            throw invalid(glob);
        }
        Glob compiled = new Glob(glob);
        int match = compiled.add(new State(MATCH, '\0', null));
        compiled.start = compiled.sequence(glob, 0, glob.length(), match, false);
        return compiled;
    }

    /** True when {@code path} (project-relative, {@code /}-separated) matches. */
    boolean matches(RelativePath path) {
        return matches(nameOnly ? path.name() : path.toString());
    }

    boolean matches(CharSequence subject) {
        BitSet current = new BitSet(states.size());
        BitSet next = new BitSet(states.size());
        int[] stack = new int[states.size()];
        close(start, current, stack);
        for (int i = 0; i < subject.length() && !current.isEmpty(); i++) {
            char c = subject.charAt(i);
            next.clear();
            for (int s = current.nextSetBit(0); s >= 0; s = current.nextSetBit(s + 1)) {
                State state = states.get(s);
                boolean step = switch (state.kind) {
                    case LITERAL -> state.literal == c;
                    case ONE_IN_COMPONENT -> c != '/';
                    case ANY_ONE -> true;
                    case CLASS -> Objects.requireNonNull(state.characters).contains(c);
                    default -> false;
                };
                if (step) {
                    close(state.out, next, stack);
                }
            }
            BitSet swap = current;
            current = next;
            next = swap;
        }
        for (int s = current.nextSetBit(0); s >= 0; s = current.nextSetBit(s + 1)) {
            if (states.get(s).kind == MATCH) {
                return true;
            }
        }
        return false;
    }

    /** Adds {@code from} and every state reachable from it through splits to {@code set}. */
    private void close(int from, BitSet set, int[] stack) {
        int top = 0;
        stack[top++] = from;
        while (top > 0) {
            int s = stack[--top];
            if (s < 0 || set.get(s)) {
                continue;
            }
            set.set(s);
            State state = states.get(s);
            if (state.kind == SPLIT) {
                stack[top++] = state.out;
                stack[top++] = state.alt;
            }
        }
    }

    private int add(State state) {
        states.add(state);
        return states.size() - 1;
    }

    private int split(int out, int alt) {
        State state = new State(SPLIT, '\0', null);
        state.out = out;
        state.alt = alt;
        return add(state);
    }

    private int step(int kind, char literal, @Nullable CharClass characters, int next) {
        State state = new State(kind, literal, characters);
        state.out = next;
        return add(state);
    }

    /** A star loop: {@code kind} repeated any number of times, then {@code next}. */
    private int loop(int kind, int next) {
        int loop = split(-1, next);
        states.get(loop).out = step(kind, '\0', null, loop);
        return loop;
    }

    /**
     * Builds the automaton of {@code glob[from, to)} followed by {@code next}, from the end
     * backwards; answers its start state.
     */
    private int sequence(String glob, int from, int to, int next, boolean inAlternative) {
        List<int[]> pieces = new ArrayList<>(); // {start, end} of each piece, in order
        int i = from;
        while (i < to) {
            char c = glob.charAt(i);
            int end = i + 1;
            if (c == '*' && i + 1 < to && glob.charAt(i + 1) == '*') {
                end = i + 2 < to && glob.charAt(i + 2) == '/' ? i + 3 : i + 2;
            } else if (c == '[') {
                end = classEnd(glob, i, to) + 1;
            } else if (c == '{') {
                if (inAlternative) {
                    throw invalid(glob);
                }
                int close = glob.indexOf('}', i);
                if (close < 0 || close >= to) {
                    throw invalid(glob);
                }
                end = close + 1;
            } else if (c == '\\') {
                if (i + 1 >= to) {
                    throw invalid(glob);
                }
                end = i + 2;
            }
            pieces.add(new int[] {i, end});
            i = end;
        }
        int state = next;
        for (int p = pieces.size() - 1; p >= 0; p--) {
            state = piece(glob, pieces.get(p)[0], pieces.get(p)[1], state);
        }
        return state;
    }

    private int piece(String glob, int from, int to, int next) {
        char c = glob.charAt(from);
        if (c == '*' && to - from >= 2) {
            if (to - from == 3) { // "**/": nothing, or anything ending in "/"
                int loop = split(-1, step(LITERAL, '/', null, next));
                states.get(loop).out = step(ANY_ONE, '\0', null, loop);
                return split(loop, next);
            }
            return loop(ANY_ONE, next);
        }
        return switch (c) {
            case '*' -> loop(ONE_IN_COMPONENT, next);
            case '?' -> step(ONE_IN_COMPONENT, '\0', null, next);
            case '[' -> step(CLASS, '\0', characterClass(glob, from, to - 1), next);
            case '{' -> alternatives(glob, from, to - 1, next);
            case '\\' -> step(LITERAL, glob.charAt(from + 1), null, next);
            default -> step(LITERAL, c, null, next);
        };
    }

    private int alternatives(String glob, int open, int close, int next) {
        List<Integer> starts = new ArrayList<>();
        int begin = open + 1;
        for (int i = open + 1; i <= close; i++) {
            if (i == close || glob.charAt(i) == ',') {
                starts.add(sequence(glob, begin, i, next, true));
                begin = i + 1;
            }
        }
        int state = starts.get(starts.size() - 1);
        for (int a = starts.size() - 2; a >= 0; a--) {
            state = split(starts.get(a), state);
        }
        return state;
    }

    /** The index of the {@code ]} closing the bracket expression at {@code open}. */
    private static int classEnd(String glob, int open, int to) {
        int i = open + 1;
        if (i < to && (glob.charAt(i) == '!' || glob.charAt(i) == '^')) {
            i++;
        }
        int first = i;
        while (i < to && (glob.charAt(i) != ']' || i == first)) {
            if (glob.charAt(i) == '/') {
                throw invalid(glob);
            }
            i++;
        }
        if (i >= to) {
            throw invalid(glob);
        }
        return i;
    }

    private static CharClass characterClass(String glob, int open, int close) {
        int i = open + 1;
        boolean negate = glob.charAt(i) == '!' || glob.charAt(i) == '^';
        if (negate) {
            i++;
        }
        StringBuilder singles = new StringBuilder();
        StringBuilder ranges = new StringBuilder();
        while (i < close) {
            char c = glob.charAt(i);
            if (i + 2 < close && glob.charAt(i + 1) == '-') {
                ranges.append(c).append(glob.charAt(i + 2));
                i += 3;
                continue;
            }
            singles.append(c);
            i++;
        }
        return new CharClass(singles.toString(), ranges.toString(), negate);
    }

    @Override
    public String toString() {
        return text;
    }

    private static LomiException invalid(String glob) {
        return new LomiException(ErrorCode.INVALID_ARGUMENT, "invalid glob: " + glob);
    }
}
