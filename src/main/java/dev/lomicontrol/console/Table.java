package dev.lomicontrol.console;

import java.util.ArrayList;
import java.util.List;

/** Plain-text columns for console listings: a header row, then rows, left-aligned, two spaces apart. */
final class Table {

    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
        rows.add(header);
    }

    Table row(Object... cells) {
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = String.valueOf(cells[i]);
        }
        rows.add(row);
        return this;
    }

    int size() {
        return rows.size() - 1;
    }

    @Override
    public String toString() {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        rows.forEach(r -> {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(i + 1 < columns ? String.format("%-" + widths[i] + "s  ", row[i]) : row[i]);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString().stripTrailing();
    }

    /** Key/value lines, keys padded to one width. */
    static String pairs(List<String[]> pairs) {
        int width = pairs.stream().mapToInt(p -> p[0].length()).max().orElse(0);
        StringBuilder out = new StringBuilder();
        pairs.forEach(p -> out.append(String.format("%-" + (width + 1) + "s ", p[0] + ":"))
                .append(p[1])
                .append('\n'));
        return out.toString().stripTrailing();
    }
}
