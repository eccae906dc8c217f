package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.List;
import java.util.Locale;

/**
 * Turns an {@link InputEvent} into the argv of the device commands that deliver it, in order —
 * {@code input motionevent|keyevent|text …} and {@code settings put system …} — never a shell string:
 * each argv is quoted word by word by {@link ShellQuote} when it is sent. An event the device's
 * {@code input} command cannot carry faithfully is refused before anything is sent.
 *
 * <p>What {@code input text} carries (AOSP's {@code Input}/{@code InputShellCommand}): the
 * characters of the virtual keyboard's key map, which is printable ASCII (U+0020..U+007E); any other
 * character makes it fail part-way, so such text is refused (UNSUPPORTED_CAPABILITY). It turns every
 * {@code %s} into a space, so spaces are sent as {@code %s} and a {@code %} followed by {@code s} in
 * the text, which it cannot type, is refused (INVALID_ARGUMENT).
 */
public final class AndroidInput {

    private AndroidInput() {}

    /** The commands that deliver {@code event}; empty when it needs none (a key's release). */
    public static List<List<String>> commands(InputEvent event) {
        if (event instanceof InputEvent.Touch touch) {
            return List.of(touch(touch));
        }
        if (event instanceof InputEvent.Tap tap) {
            return List.of(List.of("input", "tap", Long.toString(tap.x()), Long.toString(tap.y())));
        }
        if (event instanceof InputEvent.Swipe swipe) {
            return List.of(List.of(
                    "input",
                    "swipe",
                    Long.toString(swipe.x()),
                    Long.toString(swipe.y()),
                    Long.toString(swipe.toX()),
                    Long.toString(swipe.toY()),
                    Integer.toString(swipe.durationMs())));
        }
        if (event instanceof InputEvent.Key key) {
            return key.down() ? List.of(List.of("input", "keyevent", keyCode(key.key()))) : List.of();
        }
        if (event instanceof InputEvent.Navigation navigation) {
            return List.of(List.of("input", "keyevent", navigationKeyCode(navigation.key())));
        }
        if (event instanceof InputEvent.Rotate rotate) {
            return List.of(
                    List.of("settings", "put", "system", "accelerometer_rotation", "0"),
                    List.of("settings", "put", "system", "user_rotation", Integer.toString(rotate.quarterTurns() % 4)));
        }
        if (event instanceof InputEvent.Text text) {
            return List.of(List.of("input", "text", inputText(text.text())));
        }
        throw new IllegalStateException("an input event of an unknown kind: " + event.getClass());
    }

    /**
     * {@code text} as the one word {@code input text} types back as exactly {@code text}; refused when
     * no such word exists.
     */
    public static String inputText(String text) {
        if (text.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is empty; send at least one character");
        }
        StringBuilder word = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "text carries " + describe(text.codePointAt(i)) + " at index " + i
                                + "; the device's `input text` types printable ASCII only (U+0020..U+007E): send"
                                + " other characters another way (a key event for Enter or Tab), nothing was sent");
            }
            if (c == '%' && i + 1 < text.length() && text.charAt(i + 1) == 's') {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "text carries \"%s\" at index " + i + ", which the device's `input text` types as a space;"
                                + " send it as two text events split between % and s, nothing was sent");
            }
            word.append(c == ' ' ? "%s" : String.valueOf(c));
        }
        return word.toString();
    }

    private static List<String> touch(InputEvent.Touch touch) {
        if (touch.identifier() != 0) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "touch identifier " + touch.identifier() + ": the device's `input motionevent` carries one"
                            + " pointer only; use identifier 0");
        }
        return List.of(
                "input", "motionevent", touch.phase().name(), Long.toString(touch.x()), Long.toString(touch.y()));
    }

    /** {@code key} as {@code input keyevent} names it: a number as given, a name as {@code KEYCODE_NAME}. */
    static String keyCode(String key) {
        if (key.isEmpty() || key.length() > 64 || !key.matches("[A-Za-z0-9_]+")) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "key must be 1..64 letters, digits or _ (an Android key name or code)");
        }
        if (key.chars().allMatch(Character::isDigit)) {
            return key;
        }
        String upper = key.toUpperCase(Locale.ROOT);
        return upper.startsWith("KEYCODE_") ? upper : "KEYCODE_" + upper;
    }

    static String navigationKeyCode(InputEvent.NavigationKey key) {
        switch (key) {
            case BACK:
                return "KEYCODE_BACK";
            case HOME:
                return "KEYCODE_HOME";
            case OVERVIEW:
                return "KEYCODE_APP_SWITCH";
            case POWER:
                return "KEYCODE_POWER";
        }
        throw new IllegalStateException("a navigation key of an unknown kind: " + key);
    }

    private static String describe(int codePoint) {
        return String.format(Locale.ROOT, "U+%04X", codePoint);
    }
}
