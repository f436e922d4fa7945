# acls.commands lines that differ only in their principal become one kafka-acls.sh call naming
# every such principal (the tool takes --allow-principal several times): the same ACLs with
# about half the calls, each of which starts a JVM. Used by apply-acls.sh.
{
  match($0, /--allow-principal User:[^ ]+ /)
  principal = substr($0, RSTART, RLENGTH)
  key = substr($0, 1, RSTART - 1) substr($0, RSTART + RLENGTH)
  if (!(key in principals)) order[++n] = key
  principals[key] = principals[key] principal
}
END {
  for (i = 1; i <= n; i++) {
    line = order[i]
    sub(/--add /, "--add " principals[order[i]], line)
    print line
  }
}
