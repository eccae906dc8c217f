package dev.lomicontrol.tools.artifacts;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The artifacts tools: each declared once, with its input and output records. */
public final class ArtifactSpecs {

    private ArtifactSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
