package dev.lomicontrol.tools;

/**
 * A tool's MCP annotations — hints for the client, never consent — written as the reference's four
 * letters: R(eadOnly) D(estructive) I(dempotent) O(penWorld), {@code -} for false, e.g. {@code "-DIO"}.
 */
public record Hints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

    public static Hints of(String letters) {
        if (letters.length() != 4) {
            throw new IllegalArgumentException("hints are four letters RDIO or '-': " + letters);
        }
        return new Hints(flag(letters, 0, 'R'), flag(letters, 1, 'D'), flag(letters, 2, 'I'), flag(letters, 3, 'O'));
    }

    private static boolean flag(String letters, int index, char letter) {
        char c = letters.charAt(index);
        if (c != letter && c != '-') {
            throw new IllegalArgumentException("position " + index + " of " + letters + " is " + letter + " or '-'");
        }
        return c == letter;
    }

    @Override
    public String toString() {
        return (readOnly ? "R" : "-") + (destructive ? "D" : "-") + (idempotent ? "I" : "-") + (openWorld ? "O" : "-");
    }
}
