package dev.lomicontrol.episodes;

import dev.lomicontrol.core.Ids;
import java.util.random.RandomGenerator;

/** The broker's id of one execution episode: 16 random bytes, hex. */
public record EpisodeId(String value) {

    public EpisodeId {
        Ids.requireHex(value, 32, "episodeId");
    }

    public static EpisodeId random(RandomGenerator random) {
        return new EpisodeId(Ids.randomHex(random, 16));
    }

    @Override
    public String toString() {
        return value;
    }
}
