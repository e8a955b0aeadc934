// The failure names the missing dependency and the opt-out, has no stack trace, and nothing was generated.
def full = new File(basedir, 'build.log').text
def hook = full.indexOf('Running post-build script')
def log = hook < 0 ? full : full.substring(0, hook)

assert log.contains('prmkit:generate: the generated sources import io.prmkit.layout.PrmLayout, but io.prmkit:prmkit-layout is not a compile-scope dependency of this project; add it')
assert !log.contains('COMPILATION ERROR') : 'javac ran on generated files'
assert !(log =~ /(?m)^\s*at [a-z][\w.$]*\(/) : 'stack trace in the log'
assert !new File(basedir, 'target/generated-sources/prm').exists()
return true
