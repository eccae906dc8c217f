package dev.lomicontrol.android;

/**
 * One ordered input event for a device, the engine's copy of the contract's {@code event} union
 * (the tool adapter maps each variant field for field; the enums carry the contract's constant
 * names, so {@code valueOf(contract.name())} maps them). {@link AndroidInput} turns it into device
 * commands.
 */
public sealed interface InputEvent {

    /** A canonical text naming the event and every field: equal events, equal payloads. */
    String payload();

    enum TouchPhase {
        DOWN,
        MOVE,
        UP
    }

    enum NavigationKey {
        BACK,
        HOME,
        OVERVIEW,
        POWER
    }

    /** One touch point on the hardware display, in device pixels. */
    record Touch(int identifier, long x, long y, TouchPhase phase) implements InputEvent {
        @Override
        public String payload() {
            return "touch " + identifier + " " + x + " " + y + " " + phase;
        }
    }

    /** A whole tap (down and up) at one point of the hardware display, in device pixels. */
    record Tap(long x, long y) implements InputEvent {
        @Override
        public String payload() {
            return "tap " + x + " " + y;
        }
    }

    /** A finger moved from one point to another over {@code durationMs}; a long press when both are the same. */
    record Swipe(long x, long y, long toX, long toY, int durationMs) implements InputEvent {
        @Override
        public String payload() {
            return "swipe " + x + " " + y + " " + toX + " " + toY + " " + durationMs;
        }
    }

    /** A key by its Android name ({@code ENTER}, {@code KEYCODE_ENTER}) or number. */
    record Key(String key, boolean down) implements InputEvent {
        @Override
        public String payload() {
            return "key " + key + " " + down;
        }
    }

    record Navigation(NavigationKey key) implements InputEvent {
        @Override
        public String payload() {
            return "navigation " + key;
        }
    }

    /** The display's rotation, counted in quarter turns from natural (taken modulo 4). */
    record Rotate(int quarterTurns) implements InputEvent {
        @Override
        public String payload() {
            return "rotate " + quarterTurns;
        }
    }

    record Text(String text) implements InputEvent {
        @Override
        public String payload() {
            return "text " + text;
        }
    }
}
