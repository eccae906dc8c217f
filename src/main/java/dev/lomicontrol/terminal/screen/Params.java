package dev.lomicontrol.terminal.screen;

/**
 * The numeric parameters of one control sequence. Bounded whatever the input: at most
 * {@value #MAX_COUNT} parameters (further ones are dropped) and values saturate at
 * {@value #MAX_VALUE}. Sub-parameters separated by ':' count as parameters of their own.
 */
final class Params {

    static final int MAX_COUNT = 32;
    static final int MAX_VALUE = 65_535;

    private final int[] values = new int[MAX_COUNT];
    private int count;
    private boolean full;

    void reset() {
        count = 0;
        full = false;
    }

    void digit(int digit) {
        if (full) {
            return;
        }
        if (count == 0) {
            values[0] = 0;
            count = 1;
        }
        values[count - 1] = Math.min(MAX_VALUE, values[count - 1] * 10 + digit);
    }

    void separator() {
        if (count == 0) {
            values[0] = 0;
            count = 1;
        }
        if (count == MAX_COUNT) {
            full = true;
        } else if (!full) {
            values[count++] = 0;
        }
    }

    /** How many parameters were given (an empty one counts). */
    int count() {
        return count;
    }

    /** Parameter {@code index}, or {@code fallback} when absent or zero (the usual "default" rule). */
    int get(int index, int fallback) {
        int value = raw(index);
        return value == 0 ? fallback : value;
    }

    /** Parameter {@code index} as given, 0 when absent. */
    int raw(int index) {
        return index < count ? values[index] : 0;
    }
}
