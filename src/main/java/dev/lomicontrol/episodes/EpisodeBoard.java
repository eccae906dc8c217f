package dev.lomicontrol.episodes;

import java.util.List;
import java.util.Optional;

/**
 * What {@code lomi_episodes} shows to one caller: the live episodes (attached and detached, ordered
 * by externalId), the most recently closed ones with their reasons (newest first), and the
 * caller's own episode if it holds one.
 */
public record EpisodeBoard(List<Episode> live, List<Episode> recentlyClosed, Optional<Episode> mine) {

    public EpisodeBoard {
        live = List.copyOf(live);
        recentlyClosed = List.copyOf(recentlyClosed);
    }

    public long count(EpisodeState state) {
        return live.stream().filter(e -> e.state() == state).count();
    }
}
