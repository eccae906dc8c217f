package dev.lomicontrol.files;

import java.util.List;

/**
 * Matches of one search. {@code truncated} when a bound (max matches, byte or entry budget) stopped
 * it early; {@code skipped} counts files or lines left out (too large, binary, over-long lines).
 */
public record SearchResult(List<SearchMatch> matches, boolean truncated, int filesScanned, int skipped) {
    public SearchResult {
        matches = List.copyOf(matches);
    }
}
