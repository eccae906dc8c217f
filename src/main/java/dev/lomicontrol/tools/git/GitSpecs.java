package dev.lomicontrol.tools.git;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The git tools: each declared once, with its input and output records. */
public final class GitSpecs {

    private GitSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
