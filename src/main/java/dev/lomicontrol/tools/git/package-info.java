/**
 * The git tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.git;

import org.jspecify.annotations.NullMarked;
