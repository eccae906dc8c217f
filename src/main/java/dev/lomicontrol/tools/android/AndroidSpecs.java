package dev.lomicontrol.tools.android;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The android tools: each declared once, with its input and output records. */
public final class AndroidSpecs {

    private AndroidSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
