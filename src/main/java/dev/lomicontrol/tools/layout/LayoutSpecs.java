package dev.lomicontrol.tools.layout;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The layout tools: each declared once, with its input and output records. */
public final class LayoutSpecs {

    private LayoutSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
