# Writes OUT: the text file IN as a C array VAR of string constants, one per
# line (each literal stays short, as ISO C asks), ending with NULL.
file(READ ${IN} text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\",\n\"" text "${text}")
file(WRITE ${OUT} "// Generated from ${IN} by tools/embed_lines.cmake.\n#include <stddef.h>\nextern const char *const ${VAR}[];\nconst char *const ${VAR}[] = {\n\"${text}\", NULL};\n")
