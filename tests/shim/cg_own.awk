# cg_own.awk - the instructions executed inside objects whose path matches
# `pat`, read from a callgrind output file (self cost; the inclusive cost
# that follows each calls= line is skipped).
#
#   awk -v pat=libdlayout -f cg_own.awk callgrind.out
#
# callgrind_annotate cannot give this: it merges functions of the same
# name across objects, so the shim's clEnqueueNDRangeKernel and the ICD
# loader's become one row, credited to whichever object it met first.
function name_of(kind, rest,   id, name) {
    if (!match(rest, /^\([0-9]+\)/))
        return rest
    id = substr(rest, 2, RLENGTH - 2)
    name = substr(rest, RLENGTH + 1)
    sub(/^ /, "", name)
    if (name != "")
        names[kind, id] = name
    return names[kind, id]
}
/^ob=/ { ob = name_of("ob", substr($0, 4)); next }
/^cob=/ { name_of("ob", substr($0, 5)); next }
/^calls=/ { skip_next = 1; next }
/^[0-9+*-]/ {
    if (skip_next)
        skip_next = 0
    else if (ob ~ pat)
        total += $NF
    next
}
END { print total + 0 }
