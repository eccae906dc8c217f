package dev.lomicontrol.tools.session;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The session tools: each declared once, with its input and output records. */
public final class SessionSpecs {

    private SessionSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
