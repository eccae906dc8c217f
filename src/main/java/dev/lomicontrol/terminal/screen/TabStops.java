package dev.lomicontrol.terminal.screen;

import java.util.Arrays;

/** Horizontal tab stops: every eighth column by default, changed by HTS and TBC. */
final class TabStops {

    private boolean[] stops;

    TabStops(int columns) {
        stops = defaults(columns);
    }

    /** The column the cursor reaches after {@code count} tabs from {@code col} (at most the last). */
    int next(int col, int count) {
        int at = col;
        for (int i = 0; i < count && at < stops.length - 1; i++) {
            do {
                at++;
            } while (at < stops.length - 1 && !stops[at]);
        }
        return at;
    }

    /** The column the cursor reaches after {@code count} back-tabs from {@code col} (at least 0). */
    int previous(int col, int count) {
        int at = col;
        for (int i = 0; i < count && at > 0; i++) {
            do {
                at--;
            } while (at > 0 && !stops[at]);
        }
        return at;
    }

    void set(int col) {
        stops[col] = true;
    }

    void clear(int col) {
        stops[col] = false;
    }

    void clearAll() {
        Arrays.fill(stops, false);
    }

    void reset() {
        stops = defaults(stops.length);
    }

    /** Keeps the stops of the columns that remain; new columns get the default stops. */
    void resize(int columns) {
        boolean[] resized = defaults(columns);
        System.arraycopy(stops, 0, resized, 0, Math.min(columns, stops.length));
        stops = resized;
    }

    private static boolean[] defaults(int columns) {
        boolean[] initial = new boolean[columns];
        for (int i = 8; i < columns; i += 8) {
            initial[i] = true;
        }
        return initial;
    }
}
