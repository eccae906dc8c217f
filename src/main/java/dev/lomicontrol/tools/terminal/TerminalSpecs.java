package dev.lomicontrol.tools.terminal;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The terminal tools: each declared once, with its input and output records. */
public final class TerminalSpecs {

    private TerminalSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
