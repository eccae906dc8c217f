package dev.lomicontrol.tools.episodes;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The episodes tools: each declared once, with its input and output records. */
public final class EpisodeSpecs {

    private EpisodeSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
