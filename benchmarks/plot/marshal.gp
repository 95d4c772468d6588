# marshal.gp - Table 3 and Figure 7 of the DL paper: GB/s of the in-place
# conversions for every ELL shape of Table 1, per algorithm and tile.
# Data: marshal_plot.dat (written by dl-bench suite): one row per shape,
# columns shape, then bs/pttwac AoS->ASTA and pipt/pttwac DA->ASTA for
# T = 16, 32, 64 (NaN where not applicable or not verified).
if (!exists("term")) term = 'pngcairo'
set terminal @term size 1000,420
set output 'marshal.png'
set datafile missing 'NaN'
set style data linespoints
set grid
set key outside right
set ylabel 'GB/s (read + write)'
set xtics rotate by -30
set multiplot layout 1,2
set title 'AoS -> ASTA (Table 3)'
plot for [c=2:4] 'marshal_plot.dat' using c:xtic(1) lw 2 \
         title sprintf('BS T=%d', 2**(c+2)), \
     for [c=5:7] '' using c dt 2 title sprintf('PTTWAC T=%d', 2**(c-1))
set title 'DA -> ASTA (Figure 7)'
plot for [c=8:10] 'marshal_plot.dat' using c:xtic(1) dt 2 \
         title sprintf('P-IPT T=%d', 2**(c-4)), \
     for [c=11:13] '' using c lw 2 title sprintf('PTTWAC T=%d', 2**(c-7))
unset multiplot
