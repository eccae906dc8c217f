package dev.lomicontrol.tools.browser;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The browser tools: each declared once, with its input and output records. */
public final class BrowserSpecs {

    private BrowserSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
