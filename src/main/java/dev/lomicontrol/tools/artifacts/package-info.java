/**
 * The artifact tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.artifacts;

import org.jspecify.annotations.NullMarked;
