# Тексты страницы и сервера по-русски. Те же сообщения, что в en.ftl. Нотация (a1-h8, c3-d4,
# e5:c3) не переводится.

## Рамка страницы: заголовок, настройки, несуществующие страницы

site-name = Башни
nav-lobby = Лобби
nav-tournaments = Турниры
nav-new-game = Новая партия
nav-study = Доска для анализа
nav-leaderboard = Рейтинг
needs-javascript = Для этой страницы нужен JavaScript.
page-not-found = Страница не найдена
page-not-found-back = На главную страницу

settings = Настройки
settings-page-colours = Цвета страницы
settings-scheme-system = Как в системе
settings-scheme-light = Светлые
settings-scheme-dark = Тёмные
settings-board-colours = Цвета доски
settings-board-wood = Дерево
settings-board-green = Зелёная
settings-board-grey = Серая
settings-board-size = Размер доски
settings-sounds = Звуки
settings-language = Язык

## Ответы сервера на отклонённые запросы

error-too-many-requests = слишком много запросов с вашего адреса; помедленнее
error-too-many-open = слишком много запросов с вашего адреса выполняется сразу; помедленнее
error-body-too-slow = запрос пришёл слишком медленно; отправьте его ещё раз
error-not-logged-in = вы не вошли (или ваш сеанс закончился)
error-wrong-login = неверное имя или пароль
error-name-taken = имя { $name } занято; выберите другое
error-name-looks-taken = имя { $name } слишком похоже на занятое имя { $taken }; выберите другое
error-wrong-password = неверный пароль; учётная запись не удалена
error-store-busy = база данных занята; ничего не изменилось, попробуйте ещё раз
error-store-full = на диске сервера нет места; ничего не изменилось
error-store-stale = партия тем временем изменилась; ничего не изменилось, посмотрите на неё ещё раз
error-store-corrupt = сохранённую партию не удаётся прочитать
error-store-failed = партию не удалось сохранить; ничего не изменилось
error-name-long = имя — не длиннее { $most ->
        [one] { $most } знака
       *[other] { $most } знаков
    }
error-no-seat = у вашей учётной записи нет места в этой партии
error-socket-too-many = слишком много сообщений; помедленнее
error-pictures-too-many = { $most ->
        [one] уже рисуется { $most } ваша картинка
        [few] уже рисуются { $most } ваши картинки
       *[other] уже рисуются { $most } ваших картинок
    }; дождитесь их
error-pictures-busy = сервер сейчас рисует много картинок; попробуйте через несколько секунд

# Слова API, одинаковые на всех языках (то, что неверно присылает только программа).
api-words = { $words }
error-too-many-games = слишком много новых партий с вашего адреса (не больше { $most } в минуту); подождите немного

# Отказы в партии. $mover: white или black, чей ход.
round-needs-token = для этого нужно ваше место в партии; откройте партию по ссылке, которую вы получили
round-wrong-token = ключ вашего места не подходит к этой партии
round-record-no-play = эта партия — запись из PDN; в ней нельзя ходить
round-record-nothing = в записи нельзя ходить
round-game-over = партия уже окончена
round-not-joined = второй игрок ещё не пришёл; отправьте ему ссылку-приглашение
round-not-your-turn = сейчас ход { $mover ->
        [white] белых
       *[black] чёрных
    }
round-move-not-legal = ход { $mv } здесь невозможен
round-move-unreadable = { $mv } не читается как ход (позиция { $column })
# $why: почему ход невозможен; $square: поле; $legal: возможные ходы или "none".
round-move-illegal = ход { $mv } невозможен: { $why ->
        [no_tower] у стороны, чей ход, нет шашки на { $square }
        [capture] бить обязательно
        [no_capture] бить нечего
        [no_crowning] на { $square } шашка не становится дамкой
        [no_moves] у стороны, чей ход, нет ходов
       *[no_way] туда не идёт ни один ход
    }; возможные ходы: { $legal ->
        [none] нет
       *[other] { $legal }
    }
round-move-ambiguous = ход { $mv } неоднозначен: это может быть { $moves }
round-flagged = у { $mover ->
        [white] белых
       *[black] чёрных
    } кончилось время
round-move-time-out = у { $mover ->
        [white] белых
       *[black] чёрных
    } кончилось время на этот ход
round-ply-limit = партия дошла до предела сервера: { $plies } { $plies ->
        [one] полуход
        [few] полухода
       *[other] полуходов
    }; согласитесь на ничью или сдайтесь
round-abort-not-player = отменить партию может только её игрок
round-record-no-abort = запись из PDN нельзя отменить
round-tournament-no-abort = турнирную партию нельзя отменить; сдайтесь или предложите ничью
round-abort-too-late = обе стороны уже сходили, и партию больше нельзя отменить; сдайтесь или предложите ничью
round-record-no-rematch = у записи из PDN нет игроков для реванша; начните новую партию
round-rematch-not-over = реванш можно предложить только после конца партии
round-tournament-no-rematch = в турнире нет реванша: турнир сам составит следующую партию
round-rematch-nobody = в эту партию никто не пришёл, реванш играть не с кем; начните новую партию
round-rematch-started = реванш уже начался: партия { $game }
round-rematch-engine = программа не просит реванша
round-rematch-offered = вы уже предложили реванш
round-rematch-none-to-accept = нет предложения реванша, которое можно принять
round-rematch-own = нельзя принять собственное предложение реванша; ответит соперник
round-rematch-none-to-decline = нет предложения реванша, которое можно отклонить
round-draw-none-to-answer = нет предложения ничьей, на которое можно ответить
round-draw-already-offered = ваше предложение ничьей уже ждёт ответа
round-claim-not-turn = ничью требует сторона, чей ход, в свой ход
round-nothing-to-claim = в этой позиции нельзя потребовать ничью
round-draw-offer-too-early = в русских шашках ничью можно предложить только после { $moves }-го хода каждой стороны (6.1.8.1)
round-no-draw-offer = соперник не предлагал ничью
round-draw-offer-not-on-move = в башнях ничью предлагают только в свой ход, вместе с ходом (1.13.3)
round-draw-offer-repeated = в башнях снова предложить ничью можно только после того, как её предложит соперник (1.13.3)
round-takeback-none = нет хода, который можно вернуть
round-takeback-no-engine = в этой партии нет программы
round-takeback-not-player = вернуть ход может только игрок
round-takeback-no-own-move = вы ещё не сделали хода, который можно вернуть
round-takeback-friend = в партии двух людей по сети ходы не возвращают
round-invite-not-friend = приглашение есть только у партии с другом
round-invite-over = партия окончена; присоединиться к ней нельзя
round-invite-full = оба места уже заняты
round-invite-wrong = код приглашения не подходит к этой партии
round-engine-no-offer = программе не на что отвечать: ничью не предлагали
round-engine-not-turn = сейчас не ход программы
round-play-yourself = другое место в этой партии занимает ваша же учётная запись; с собой играть нельзя
# $seen: полуходы позиции, которую видел игрок; $now: полуходы партии.
round-stale = это было сделано для позиции после { $seen } { $seen ->
        [one] полухода
       *[other] полуходов
    }, а в партии их уже { $now }; ничего не изменилось, посмотрите на партию ещё раз

# Требования, когда соперник ушёл.
claim-friend-only = требовать победу или ничью за ушедшего соперника можно только в партии двух людей по сети
claim-correspondence = партия по переписке кончается по срокам, а не по требованию, когда игрок ушёл
claim-before-both-moved = сначала обе стороны должны сходить; до этого партию можно отменить
claim-not-player = требовать может только игрок этой партии
claim-own-turn = сейчас ваш ход; требовать может только тот, кто ждёт ушедшего соперника
claim-opponent-online = { $mover ->
        [white] белые
       *[black] чёрные
    } на месте; требовать нечего
# $away: сколько секунд соперника нет; $after: через сколько секунд можно требовать; $left: сколько ещё ждать.
claim-too-early = { $mover ->
        [white] белых
       *[black] чёрных
    } нет уже { $away } с; требовать можно через { $after } с, осталось { $left } с

# Отказы в чате.
chat-players-room-friend-only = чат игроков есть только в партии двух людей по сети
chat-watchers-not-in-players-room = в чат игроков пишут только двое игроков; зрители пишут в чат зрителей
chat-players-not-in-watchers-room = игроки могут читать чат зрителей, но не писать в него
chat-mute-not-player = заглушить соперника может только игрок
chat-mute-friend-only = заглушить можно только в партии двух людей по сети
chat-name-of-account = { $name } — имя учётной записи ({ $account }); войдите или пишите под другим именем
chat-too-many-lines = не больше { $most } { $most ->
        [one] сообщения
       *[other] сообщений
    } за { $seconds } { $seconds ->
        [one] секунду
        [few] секунды
       *[other] секунд
    }; подождите { $wait } с

# Отказы в зале ожидания.
seek-gone = этой заявки уже нет: её принял другой игрок или снял её автор
seek-rated-needs-account = для партии на рейтинг нужна учётная запись: войдите или сыграйте без рейтинга
seek-name-of-account = { $name } — имя учётной записи ({ $account }); войдите или играйте под другим именем
seek-own = это ваша заявка: дождитесь другого игрока или снимите её
seek-own-account = это заявка вашей учётной записи: с собой играть нельзя
seek-cancel-not-owner = снять заявку может только тот, кто её подал
seek-too-many = у вас уже { $most } { $most ->
        [one] открытая заявка
        [few] открытые заявки
       *[other] открытых заявок
    }, больше нельзя; снимите одну
seek-too-many-account = у вашей учётной записи уже { $most } { $most ->
        [one] открытая заявка
        [few] открытые заявки
       *[other] открытых заявок
    }, больше нельзя; снимите одну

# Отказы в анализе.
analysis-too-many = у вас уже { $most ->
        [one] идёт { $most } анализ
        [few] идут { $most } анализа
       *[other] идут { $most } анализов
    }; дождитесь их
analysis-busy = программа занята другими анализами; попробуйте через несколько секунд
analysis-fair-play = эта позиция из партии людей, которая ещё идёт; программа посмотрит её, когда партия кончится

# Отказы в турнирах. $system: round_robin или swiss.
tournament-started = турнир уже начался (или кончился); войти в него или выйти можно только до начала
tournament-too-few-players = { $system ->
        [swiss] швейцарский турнир
       *[round_robin] круговой турнир
    } начинается не меньше чем с { $least } игроками; сейчас { $players }
tournament-no-pairing = первый тур нельзя составить
tournament-name-missing = дайте турниру название
tournament-name-long = название турнира — не длиннее { $most ->
        [one] { $most } знака
       *[other] { $most } знаков
    }
tournament-full = мест в турнире больше нет (участников не больше { $most })
tournament-start-not-creator = начать турнир может только тот, кто его создал
tournament-start-changed = тем временем кто-то вошёл в турнир или вышел; посмотрите на турнир ещё раз и начните его
tournament-too-many = у вас уже { $most ->
        [one] { $most } незаконченный турнир
        [few] { $most } незаконченных турнира
       *[other] { $most } незаконченных турниров
    }; сначала закончите один из них

## Записи из PDN (замечания к загрузке)

pdn-file-too-large = файл PDN слишком велик (не больше { $most } КБ)
pdn-file-no-game = в файле нет ни одной партии
pdn-too-many-games = из файла читаются только первые { $most } партий
pdn-too-long = в партии { $plies } полуходов; сервер хранит партии не длиннее { $most }
# $variant: russian или bashni; $how: asked (игра выбрана на странице), only_fit или both_fit.
pdn-no-game-type = нет тега GameType; прочитано как { $variant ->
        [russian] русские шашки
       *[bashni] башни
    }{ $how ->
        [only_fit] : партия проходит только по их правилам
        [both_fit] : партия проходит по правилам обеих игр, а записи без GameType почти всегда — русские шашки
       *[asked] {""}, как выбрано
    }
pdn-move-place = партия { $game } ({ $variant ->
        [russian] русские шашки
       *[bashni] башни
    }){ $variation ->
        [yes] , в варианте
       *[no] {""}
    }, ход { $number }{ $dots } { $mv } (строка { $line }, позиция { $column })
pdn-stop-unknown-move = ход неизвестен; разбор останавливается здесь
pdn-stop-setup = после этого хода задана позиция; разбор останавливается здесь
pdn-game-type-missing = партия { $game }: нет тега GameType: нужен GameType "25" (русские шашки) или "60" (башни)
pdn-game-type-unsupported = партия { $game }: GameType "{ $value }" не поддерживается: нужен 25 (русские шашки) или 60 (башни)
pdn-no-game-fits = партия { $game }: нет тега GameType, и запись не проходит ни по правилам одной из игр: { $further }; и { $other }
pdn-warning-encoding = строка { $line }, позиция { $column }: строка не в UTF-8; прочитана как { $encoding }
pdn-warning-text-skipped = строка { $line }, позиция { $column }: текст, который не PDN, пропущен до строки { $last }
pdn-warning-tag-name = строка { $line }, позиция { $column }: тег { $written } прочитан как { $read }
pdn-warning-setup-as-fen = строка { $line }, позиция { $column }: позиция, заданная до первого хода, прочитана как тег FEN
pdn-warning-remark = строка { $line }, позиция { $column }: в скобках слова, а не ходы; оставлены как комментарий
pdn-warning-capture-quiet = строка { $line }, позиция { $column }: взятие { $written } записано как тихий ход; прочитано как { $read }

# Отказы учётных записей. $whose: address (с этого адреса) или name (для этого имени с этого адреса).
account-name-length = имя: от { $least } до { $most } знаков
account-name-hidden = имя: { $code } не видно или меняет текст вокруг; используйте буквы, цифры, _ и -
account-name-character = имя: { $character } нельзя; используйте буквы, цифры, _ и -
account-name-no-letter = имя: нужна хотя бы одна буква
account-name-alphabets = имя: смешаны буквы разных алфавитов (например, латиница и кириллица)
account-name-reserved = имя: { $name } занято самим сайтом; выберите другое
account-password-length = пароль: от { $least } до { $most } знаков
account-too-many-logins = слишком много попыток входа { $whose ->
        [name] с этим именем с вашего адреса
       *[address] с вашего адреса
    } (не больше { $most } в минуту); подождите минуту и попробуйте снова
account-too-many-logins-spread = слишком много попыток войти с этим именем с разных адресов; войдите с адреса, с которого входили раньше, или подождите час
account-too-many-signups = слишком много новых учётных записей с вашего адреса (не больше { $most } в минуту); подождите минуту и попробуйте снова

## Главная страница

home-new-game = Новая партия
home-play = Играть
home-mode-engine = С компьютером
home-mode-friend = С другом (по ссылке-приглашению)
home-mode-local = Вдвоём за одним экраном
home-game = Игра
home-variant-bashni = Башни (столбовые шашки)
home-variant-russian = Русские шашки
home-level = Уровень компьютера
home-colour = Ваш цвет
home-colour-white = Белые
home-colour-black = Чёрные
home-colour-random = Случайно
home-clock = Часы
home-correspondence = По переписке (дни на ход)
home-days =
    { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }
home-days-per-move = Дней на ход
home-days-per-move-hint = Столько может длиться каждый ход. Неиспользованное время не переносится.
home-your-name = Ваше имя
home-first-player-name = Имя первого игрока (белые)
home-second-player = Второй игрок
home-second-player-name = Имя второго игрока
home-account-name = Имя вашей учётной записи.
home-rated = На рейтинг
home-start = Начать партию
home-pdn-title = Открыть записи партий (PDN)
home-pdn-file = Файл PDN
home-pdn-paste = Или вставьте сюда текст PDN
home-pdn-upload = Загрузить
home-pdn-nothing = Выберите файл или вставьте текст PDN.
home-pdn-none-found = В тексте не найдено ни одной партии.
home-pdn-game = Партия { $number }
home-pdn-game-error = Партия { $number }: { $error }
home-pdn-unreadable = не читается
home-your-games = Ваши партии
home-your-games-none = Пока нет.
home-live-games = Идут сейчас
home-live-games-none = Сейчас никто не играет.
home-finished-games = Сыгранные партии
home-finished-games-none = Партий пока нет.
home-records = Записи партий
home-records-none = Записей пока не загружали.
home-loading = Загрузка…
home-more = Ещё
home-lobby-title = Сыграть с человеком
home-lobby-text = Найдите соперника в лобби: примите вызов или сделайте свой.
home-lobby-link = В лобби
home-study-title = Анализ
home-study-text = Расставьте любую позицию, стройте башни, смотрите варианты и спрашивайте компьютер.
home-study-link = Открыть доску для анализа

## Партия в списке

game-item-white = Белые
game-item-black = Чёрные
game-item-in-play = идёт
game-item-aborted = прервана
game-item-moves =
    { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }

## Game page (game.js, state.js, socket.js, text.js)

# Общие слова (text.js)
text-white = Белые
text-black = Чёрные
text-white-man = белая простая
text-white-king = белая дамка
text-black-man = чёрная простая
text-black-king = чёрная дамка
text-tower-empty = { $square }: пусто
# $checkers: шашки башни или «башня из …»
text-tower = { $square }: { $checkers }
text-tower-of =
    башня из { $count ->
        [one] { $count } шашки
       *[other] { $count } шашек
    }, { $checkers } (сверху вниз)
text-level-name =
    { $level ->
        [1] новичок
        [2] начинающий
        [3] любитель
        [4] клубный
        [5] сильный клубный
        [6] эксперт
        [7] мастер
       *[8] в полную силу
    }
text-no-clock = Без часов
text-clock-preset = { $minutes } мин + { $seconds } с
# Почему партия кончилась. $side: white или black; $pieces: шашек на доске; $moves: сколько ходов считает правило (или "none").
reason-no-move = у { $side ->
        [white] белых
       *[black] чёрных
    } нет хода
reason-resignation = { $side ->
        [white] белые сдались
       *[black] чёрные сдались
    }
reason-time = у { $side ->
        [white] белых
       *[black] чёрных
    } кончилось время
reason-agreement = ничья по согласию
reason-repetition = троекратное повторение позиции
reason-quiet-moves = 15 ходов без взятия и без превращения в дамку (1.13)
reason-lone-king = 6.1.8.4: три и больше шашек против одинокой дамки, 15 ходов
reason-big-road = 6.1.8.5: три шашки против дамки на большой дороге, 5 ходов
reason-king-ending = { $moves ->
        [none] 6.1.8.6: дамки у обеих сторон, шашек на доске: { $pieces }
       *[other] 6.1.8.6: дамки у обеих сторон, шашек на доске: { $pieces }, { $moves } ходов без взятия и без превращения
    }
reason-king-moves-only = { $moves ->
        [none] 6.1.8.8: шашек на доске: { $pieces }, ходят только дамки
       *[other] 6.1.8.8: шашек на доске: { $pieces }, { $moves } ходов одними дамками без взятия
    }
reason-aborted = Отменена до того, как сходили обе стороны
reason-abandoned = { $side ->
        [white] белые ушли из партии
       *[black] чёрные ушли из партии
    }
# $reason: слова сервера
text-result-aborted = Партия прервана. { $reason }
text-result-white-wins = { $score } Победа белых. { $reason }
text-result-black-wins = { $score } Победа чёрных. { $reason }
text-result-draw = { $score } Ничья. { $reason }
text-variant-bashni = Башни
text-variant-russian = Русские шашки
text-mode-engine = с компьютером
text-mode-friend = с другом
text-mode-local = за одним экраном
text-mode-record = запись
text-per-move =
    { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    } на ход
text-left-none = время вышло
text-left-days =
    { $days ->
        [one] остался { $days } день
        [few] осталось { $days } дня
       *[many] осталось { $days } дней
    }
text-left-days-hours =
    { $days ->
        [one] остался { $days } день
        [few] осталось { $days } дня
       *[many] осталось { $days } дней
    } { $hours } ч
text-left-hours-minutes = осталось { $hours } ч { $minutes } мин
text-left-hours = осталось { $hours } ч
text-left-minutes = осталось { $minutes } мин
text-left-under-minute = осталось меньше минуты
# White's score when the engine sees a win; $moves: the winner's moves, "White wins in 4".
text-score-white-wins-in =
    Белые выигрывают за { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }
text-score-black-wins-in =
    Чёрные выигрывают за { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    }

# Состояние партии (state.js)
state-aborted = Партия прервана.
state-over = Партия окончена.
state-record-to-move =
    Запись партии. Ход { $colour ->
        [white] белых
       *[black] чёрных
    }.
state-waiting-opponent-join = Ждём, когда подключится соперник.
state-waiting-second-player = Ждём второго игрока.
state-your-move =
    Ваш ход ({ $colour ->
        [white] белые
       *[black] чёрные
    }).
state-waiting-opponent-move = Ждём хода соперника.
state-to-move =
    Ход { $colour ->
        [white] белых
       *[black] чёрных
    }.
state-tab-title = { $white } – { $black } – Башни
state-tab-your-move = ● Ваш ход – { $title }
# Для программ чтения с экрана: «Чёрные: f6:d4:b2, бьют e5, c3, выходят в дамки.»
state-move-announcement =
    { $colour ->
        [white] Белые
       *[black] Чёрные
    }: { $move }{ $takes ->
        [none] {""}
       *[other] , бьют { $takes }
    }{ $crowned ->
        [yes] , выходят в дамки
       *[no] {""}
    }.

# Связь (socket.js)
socket-no-answer = Сервер не ответил.
socket-connection-lost = Связь потеряна.
socket-connection-lost-check = Связь потеряна. Проверьте список ходов, прежде чем пробовать снова.

# Страница партии (game.js)
game-title = Партия
game-capture-forced-choose = Бить обязательно: выберите башню, которая может бить.
game-tower-cannot-move = Эта башня сейчас не может ходить.
game-no-legal-move-there = Туда нельзя пойти.
game-premove = Предход { $from }–{ $to }: будет сделан, когда придёт ваш ход, если он тогда будет возможен. Щёлкните по доске, чтобы отменить его.
game-premove-dropped = Предход теперь невозможен и отменён.
game-connection-lost = Связь потеряна. Подключаемся снова…
game-inspector-hint = Наведите на башню (или нажмите и удерживайте), чтобы увидеть, из чего она состоит.
game-capture-forced = Бить обязательно.
game-draw-declined = Ваше предложение ничьей отклонено.
game-engine-thinking = Компьютер думает…
game-move-placeholder = Введите ход, например c3-d4
game-move-label = Ход
game-play = Сделать ход
game-nav-first-title = В начало (Home)
game-nav-first = « Начало
game-nav-prev-title = Назад (←)
game-nav-prev = ‹ Назад
game-nav-next-title = Вперёд (→)
game-nav-next = Вперёд ›
game-nav-last-title = Текущая позиция (End)
game-nav-last = Сейчас »
game-claim-question = Ход { $move } в третий раз ставит на доску ту же позицию. Этим ходом можно потребовать ничью (правило 1.13.2).
game-claim-with-move = Сделать ход и потребовать ничью
game-play-without-claim = Просто сделать ход
game-cancel = Отмена
game-chooser-title =
    Взятие с ходом на { $square }: { $ways ->
        [one] { $ways } вариант
        [few] { $ways } варианта
       *[many] { $ways } вариантов
    } — выберите:
game-show-way-title = Показать этот вариант на доске
game-show-way-label = Показать { $move } на доске
game-show-way = показать
game-jumps = бьёт { $squares }
game-go-on-through = Продолжить через { $square }
game-watch-only = Вы только смотрите эту партию.
# Заголовок: «Башни, с другом (на рейтинг)»
game-heading = { $variant }, { $mode }
game-heading-rated = { $variant }, { $mode } ({ $rated })
game-tournament-game = турнирная партия
game-the-tournament = Турнир
game-tournament-round = { $name }, тур { $round }
game-player-waiting = (ждём игрока)
game-player-you = (вы)
game-online = в сети
game-offline = не в сети
game-player-to-move = • ходит
# $per: «3 дня на ход»
game-correspondence = По переписке, { $per }.
game-correspondence-waiting = По переписке, { $per }. Время пойдёт, когда подключатся оба игрока.
game-deadline =
    Ход { $colour ->
        [white] белых
       *[black] чёрных
    }: { $left } ({ $per }).
game-deadline-until = До { $date }
game-first-move =
    { $who ->
        [you] У вас
        [white] У белых
       *[black] У чёрных
    } { $seconds } с на первый ход, { $missed ->
        [loses] иначе партия будет проиграна
       *[aborted] иначе партия будет прервана
    }.
game-view-start = Вы смотрите начальную позицию. Нажмите End, чтобы вернуться к партии.
game-view-after = Вы смотрите позицию после хода { $number } { $move }. Нажмите End, чтобы вернуться к партии.
game-move-title = Показать позицию после этого хода
game-abort = Прервать партию
game-resign = Сдаться
game-resign-side =
    Сдаться за { $colour ->
        [white] белых
       *[black] чёрных
    }
game-resign-confirm = Да, сдаться
game-resign-cancel = Нет
game-draw-offer-button = Предложить ничью
game-draw-offer =
    { $colour ->
        [white] Белые
       *[black] Чёрные
    } предлагают ничью.
game-draw-offered = Вы предложили ничью.
game-draw-offered-waiting = Вы предложили ничью. Ждём ответа.
game-draw-accept = Согласиться на ничью
game-decline = Отказаться
game-draw-agreed = Ничья по соглашению.
game-draw-engine-declines = Компьютер не согласен на ничью.
# $reason: слова сервера
game-draw-claim-reason = Потребовать ничью: { $reason }
game-take-back = Вернуть ход
game-flip = Перевернуть доску
game-analyse = Анализ
game-analysis-board = Доска анализа
game-record-notes = В этой записи есть комментарии или варианты: их показывает доска анализа.
game-download-pdn = Скачать PDN
game-picture-svg = Картинка (SVG)
game-invite-link-label = Ссылка-приглашение
game-invite-link-text = Отправьте эту ссылку другу:
game-copy-invite-link = Скопировать приглашение
game-watch-link-label = Ссылка для зрителей
game-watch-link-text = Ссылка для зрителей:
game-copy-watch-link = Скопировать ссылку для зрителей
game-claim-win = Потребовать победу
game-claim-draw = Потребовать ничью
game-abandon-left-wait = { $name } не в сети. Если соперник не вернётся, через { $seconds } с вы сможете потребовать победу.
game-abandon-left-now = { $name } не в сети. Теперь вы можете потребовать победу или ничью.
game-abandon-offline-wait = { $name } не в сети. Через { $seconds } с соперник ({ $other }) сможет потребовать победу.
game-abandon-offline-now = { $name } не в сети. Соперник ({ $other }) уже может потребовать победу.
game-back-to-tournament = Вернуться к турниру
game-next-game-wait = Ваша следующая партия появится здесь, когда будет назначена пара.
game-next-game-ready = Ваша следующая партия готова: играть
game-tournament-finished = Турнир окончен.
game-rematch = Реванш (со сменой цвета)
game-rematch-go = Перейти к реваншу
game-rematch-offered = Вы предложили реванш. Ждём ответа.
game-rematch-offer =
    { $colour ->
        [white] Белые
       *[black] Чёрные
    } предлагают реванш со сменой цвета.
game-rematch-accept = Принять реванш
game-new-like-this = Новая партия с теми же условиями
game-position-as-text = Позиция текстом
game-position-side =
    { $colour ->
        [white] Белые
       *[black] Чёрные
    } ({ $count })
game-engine-view = Оценка компьютера
game-analyse-again = Анализировать снова
game-analyse-each = Оценить каждый ход
game-open-in-study = Открыть на доске для анализа
game-analysis-close = Закрыть
game-thinking-about = Анализ позиции: { $position }
game-no-such-game = Такой партии нет
game-start-new = Начать новую партию
## Lobby, tournaments, ratings, players (lobby.js, seeks.js, tournaments.js, ratings.js, rating-chart.js, player.js, your-turn.js, account-seat.js)

lobby-title = Лобби – Башни
lobby-connecting = Подключение…
lobby-connection-lost = Связь потеряна. Подключаемся снова… Ваши вызовы сняты.
lobby-connection-lost-retry = Связь потеряна. Попробуйте ещё раз.
lobby-no-answer = Сервер не ответил.
lobby-not-connected = Нет связи. Подождите немного и попробуйте ещё раз.
lobby-press-play = Нажмите «Играть», чтобы принять вызов, или бросьте свой.
# $clocks: контроль времени вызовов игрока, «5+3, 10+5».
lobby-waiting = Ждём соперника ({ $clocks }). Не закрывайте эту страницу.
lobby-paired = Партия готова. Вы играете { $colour ->
        [white] белыми
        [black] чёрными
       *[other] { $colour }
    }.
lobby-col-player = Игрок
lobby-col-game = Игра
lobby-col-clock = Контроль
lobby-col-type = Тип
lobby-col-colour = Цвет
lobby-col-action = Действие
lobby-cancel = Отменить
lobby-play = Играть
lobby-guest = Гость
lobby-you = (вы)
# Вызов одной строкой: «Башни, 5+3, На рейтинг, играет белыми».
lobby-seek-summary = { $variant }, { $clock }, { $type }, { $colour ->
        [white] играет белыми
        [black] играет чёрными
       *[other] цвет по жребию
    }
lobby-no-seeks = Открытых вызовов нет. Бросьте свой или воспользуйтесь быстрой игрой.
lobby-quick = Быстрая игра
lobby-quick-hint = Сыграйте с первым, кто ждёт с таким контролем, или дождитесь соперника.
lobby-clock-option = { $minutes } мин + { $increment } с
lobby-post-title = Новый вызов
lobby-post = Бросить вызов
lobby-rated-check = На рейтинг (сначала войдите)
lobby-open-seeks = Открытые вызовы
lobby-live = Сейчас играют

tournaments-title = Турниры – Башни
tournaments-none = Нет.
tournaments-open = Идёт набор
tournaments-running = Идут сейчас
tournaments-finished = Завершённые
tournaments-log-in = Войдите
# Идёт после ссылки «Войдите».
tournaments-log-in-to-make = { "" }, чтобы создать турнир или участвовать в нём.
tournament-title = { $name } – Башни
tournament-system = Система
tournament-system-round-robin = Круговая система
tournament-system-swiss = Швейцарская система
tournament-rounds-count =
    { $rounds ->
        [one] { $rounds } тур
        [few] { $rounds } тура
       *[many] { $rounds } туров
    }
tournament-micro = микроматчи
tournament-clock = { $minutes } мин + { $increment } с
tournament-no-clock = без часов
tournament-tiebreak-sb-short = Зон.
tournament-tiebreak-sb = Коэффициент Зоннеборна-Бергера
tournament-tiebreak-buchholz-short = Бух.
tournament-tiebreak-buchholz = Коэффициент Бухгольца
tournament-tiebreak-median-short = Мед.
tournament-tiebreak-median = Усечённый коэффициент Бухгольца
tournament-tiebreak-wins-short = Поб.
tournament-tiebreak-wins = Число побед
tournament-playing = идёт
tournament-status-open = Идёт набор: можно присоединиться.
tournament-status-running = Идёт { $round }-й тур из { $rounds }.
tournament-status-finished = Турнир завершён.
# $description: что это за турнир, «Башни, круговая система, 8 мин + 4 с».
tournament-item-meta = { $description } · участников: { $players } · организатор: { $creator }
tournament-made-by = { $description } · организатор: { $creator }
tournament-variant-bashni = Башни
tournament-variant-russian = Русские шашки
tournament-rounds = Число туров
tournament-micro-check = Микроматчи: по две партии на начало, выпавшее по жребию
tournament-new = Новый турнир
tournament-name = Название
tournament-create = Создать турнир
tournament-round = Тур { $round }
tournament-pairing = { $white } – { $black }
tournament-pairing-leg = { $white } – { $black } (партия { $leg })
tournament-bye = { $name }: пропуск тура (засчитана победа).
tournament-place = Место
tournament-player = Игрок
tournament-points = Очки
tournament-wins-draws-losses = В-Н-П
tournament-leave = Выйти
tournament-join = Участвовать
tournament-start = Начать
tournament-log-in-to-join = Войдите, чтобы участвовать
tournament-missing = Такого турнира нет
tournament-cannot-show = Страницу нельзя показать
tournament-players = Участники ({ $count })
tournament-standings = Положение
tournament-points-rule = Очки: { $win } за победу, { $draw } за ничью, { $loss } за поражение.
tournament-crosstable = Турнирная таблица
tournament-download = Скачать все партии (PDN)

player-game-rated = , на рейтинг: { $rating } ({ $diff })
player-game-casual = , без рейтинга
ratings-chart-point = { $rating }, { $date }
ratings-chart-dates = { $from } – { $to }
ratings-rated = На рейтинг
ratings-casual = Без рейтинга
ratings-not-rated =
    { $reason ->
        [same-address] Не на рейтинг: оба игрока играют с одного адреса, такие партии не считаются.
        [aborted] Не на рейтинг: партия прервана.
        [a-guest-seat] Не на рейтинг: один из игроков — гость.
       *[other] Не на рейтинг ({ $phrase })
    }
# $white, $black: рейтинги после партии; $whiteDiff, $blackDiff: их изменения, «+12», «−12».
ratings-change = Белые { $white } ({ $whiteDiff }), чёрные { $black } ({ $blackDiff })
ratings-chart = Рейтинг после каждой партии
# $variant: название игры; $pace: blitz, rapid, classical или correspondence.
ratings-row-title = { $variant }, { $pace ->
        [blitz] блиц
        [rapid] рапид
        [classical] классика
       *[correspondence] по переписке
    }
ratings-games = ({ $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[many] { $games } партий
    })
ratings-title = Рейтинги
ratings-none = Рейтинговых партий пока нет.
ratings-provisional-hint = ? значит, что рейтинг ещё не устоялся (мало партий).
leaderboard-title = Рейтинг – Башни
leaderboard-player = Игрок
leaderboard-rating = Рейтинг
leaderboard-games = Партии
leaderboard-tab = { $variant }, { $pace ->
        [blitz] блиц
        [rapid] рапид
        [classical] классика
       *[correspondence] по переписке
    }
leaderboard-hint = Сначала игроки с устоявшимся рейтингом; знак ? отмечает рейтинг, который ещё не устоялся.

player-title = { $name } – Башни
player-col-game = Игра
player-col-won = Выиграно
player-col-drawn = Вничью
player-col-lost = Проиграно
player-log-out-everywhere = Выйти везде
player-log-out-everywhere-hint = Выйти на всех устройствах и во всех браузерах, где вы вошли:
player-delete-title = Удалить учётную запись
player-delete-hint = Это нельзя отменить. Ваши партии останутся, но будут показаны как партии удалённого игрока. Имя { $name } останется занятым, и никто другой не сможет его взять.
player-password = Ваш пароль
player-delete = Удалить мою учётную запись
player-your-account = Ваша учётная запись
# Добавляется к партии в списке игрока: каким цветом он играл.
player-played = , { $colour ->
        [white] за белых
        [black] за чёрных
       *[other] { $colour }
    }
player-no-games = Партий пока нет.
# $date: день, когда создана учётная запись.
player-since = На сайте с { $date }.
player-results = Результаты
player-results-hint = Партии против людей, доигранные до результата.
player-recent-games = Последние партии
player-missing = Такого игрока нет
player-missing-text = Игрока с таким именем нет.
player-cannot-show = Страницу нельзя показать

your-turn-title = Ваш ход
your-turn-none = Ни одна партия не ждёт вашего хода.
your-turn-with-clock = с часами
your-turn-against = Ваш ход, соперник: { $opponent }
your-turn-against-someone = Ваш ход
# $pace: «3 дня на ход» или «с часами»; $move: номер хода; $colour: цвет игрока.
your-turn-meta = { $variant }, { $pace }, ход { $move } ({ $colour ->
        [white] белые
        [black] чёрные
       *[other] { $colour }
    })
your-turn-until = До { $date }
## Study, analysis, chat, accounts (study.js, analysis-board.js, analysis.js, tree.js, chat.js, join.js, login.js, account.js, board.js, towers.js, dom.js, api.js, sound.js)

study-page-title = Доска для анализа – Башни
study-heading = Доска для анализа
study-board-label = Доска для анализа. Стрелки переводят с поля на поле, Enter ставит туда выбранную шашку.
study-inspector-hint = Нажмите на поле, чтобы поставить шашку в низ его башни.
study-side-to-move = Чей ход
study-white-to-move = Ход белых
study-black-to-move = Ход чёрных
study-brush = Что ставить
study-brush-white-man = Белая простая
study-brush-white-king = Белая дамка
study-brush-black-man = Чёрная простая
study-brush-black-king = Чёрная дамка
study-brush-pop = Снять верхнюю
study-brush-erase = Очистить поле
study-brush-hint = Шашка встаёт в низ башни, поэтому собирайте каждую башню сверху вниз.
study-start-position = Начальная позиция
study-empty-board = Пустая доска
study-position = Позиция
study-paste-position = Вставьте позицию в любой записи
study-set-up = Расставить
study-engine-view = Оценка компьютера
study-analyse = Оценить
study-analysis-board = Анализ
study-play-from-here = Играть с этой позиции
study-need-position = Сначала расставьте допустимую позицию.

analysis-page-title = Анализ – Башни
analysis-heading = Анализ
analysis-board-label = Доска анализа. Стрелки переводят с поля на поле, Enter берёт башню и ставит её.
analysis-no-move-there = Туда нельзя пойти.
analysis-start-page = На главную
analysis-after-game = Анализ этой партии откроется, когда она закончится.
analysis-variation-lost = Не удалось показать вариант из записи: { $error }
analysis-inspector-hint = Наведите на башню, чтобы увидеть, из чего она состоит.
analysis-white = Белые
analysis-black = Чёрные
analysis-title-game = { $variant }: { $white } – { $black }
analysis-title-position = { $variant }, позиция
analysis-first = « В начало
analysis-first-title = В начало (Home)
analysis-prev = ‹ Назад
analysis-prev-title = Назад (←)
analysis-next = Вперёд ›
analysis-next-title = Вперёд (→)
analysis-last = В конец »
analysis-last-title = В конец варианта (End)
analysis-engine = Компьютер
analysis-promote = Сделать главным вариантом
analysis-delete = Удалить отсюда
analysis-graph = График оценки
analysis-position = Позиция
analysis-announce =
    { $colour ->
        [black] Чёрные
       *[white] Белые
    }: { $move }.
analysis-picture-png = Картинка (PNG)
analysis-picture-svg = Картинка (SVG)
analysis-game-gif = Партия (GIF)
analysis-game-pdn = Партия (PDN)
analysis-engine-off = Компьютер выключен.
analysis-thinking = Компьютер думает…
analysis-game-over = Ходов нет: здесь партия окончена.
analysis-play-line = Сыграть этот вариант на доске
analysis-scores-hint =
    Оценки даны для белых, в шашках; ход { $turn ->
        [black] чёрных
       *[white] белых
    }.
analysis-depth = глубина { $depth }
analysis-summary =
    Глубина { $depth }, { $nodes ->
        [one] { $nodes } позиция
        [few] { $nodes } позиции
       *[many] { $nodes } позиций
    }. Оценки в шашках (1.00 = одна простая); плюс — в пользу названной стороны.
analysis-score-for =
    за { $turn ->
        [black] чёрных
       *[white] белых
    }
analysis-score-for-black = за чёрных ({ $white } за белых)
analysis-play-line-on-board = Сыграть этот вариант на доске для анализа
analysis-eval-label = Оценка для белых: { $score }
analysis-no-eval = Оценки пока нет
analysis-graph-label = Оценка по ходу партии

chat = Чат
chat-watchers-chat = Чат зрителей
chat-room-players = Игроки
chat-room-watchers = Зрители
chat-placeholder = Напишите сообщение
chat-message = Сообщение
chat-your-name = Ваше имя
chat-your-name-label = Ваше имя в чате
chat-send = Отправить
chat-none-players = Игроки пока ничего не писали.
chat-none-watchers = Зрители пока ничего не писали.
chat-only-watchers = Здесь пишут только зрители.
chat-mute = Скрыть сообщения игрока { $name }
chat-unmute = Показывать сообщения игрока { $name }
chat-mute-opponent = Скрыть сообщения соперника
chat-unmute-opponent = Показывать сообщения соперника

join-page-title = Приглашение в партию – Башни
join-invited = Вас приглашают сыграть партию
join-cannot = Это приглашение нельзя использовать
join-your-name = Ваше имя
join-button = Сесть за партию
join-watch = Только смотреть партию
join-have-seat = Вы уже играете в этой партии.
join-go-to-game = Перейти к партии
join-a-player = Игрок
join-invites =
    { $name } приглашает вас сыграть: { $variant }. Вы играете { $colour ->
        [black] чёрными
       *[white] белыми
    }.
join-invites-per-move =
    { $name } приглашает вас сыграть: { $variant }, { $perMove }. Вы играете { $colour ->
        [black] чёрными
       *[white] белыми
    }.
join-no-game = Такой партии нет
join-link-wrong = Ссылка-приглашение неверна, или партии больше нет.
join-new-game = Начать новую партию
join-seat-taken = Место уже занято. { $error }

login-page-title = Вход – Башни
login-title = Вход
login-submit = Войти
login-name = Имя
login-password = Пароль
login-new-account = Новая учётная запись
login-name-hint = От 3 до 20 букв или цифр, также _ и -. Его видят другие рядом с вашими партиями.
login-password-hint = Не меньше 8 знаков.
login-password-again = Пароль ещё раз
login-make-account = Создать учётную запись
login-passwords-differ = Пароли не совпадают.
login-without-account = Играть можно и без учётной записи. С ней ваши партии и результаты хранятся на вашей странице.
login-logged-in-as = Вы вошли как { $name }.

account-log-in = Войти
account-log-out = Выйти
account-player = Учётная запись игрока
account-deleted = удалённый игрок

board-label = Доска. Стрелки переводят с поля на поле, Enter берёт башню и ставит её.
board-role = шашечная доска

dom-copied = Скопировано.
dom-copy-by-hand = Выделите ссылку и скопируйте её.

api-unreachable = Не удаётся связаться с сервером.
api-status = Сервер ответил: { $status }.

## Rules page (rules.js)

rules-page-title = Правила – Башни
rules-heading = Правила
rules-intro = Здесь играют в две игры: русские шашки и башни (столбовые шашки). Башни — это русские шашки, в которых побитая шашка не снимается с доски. Поэтому сначала прочитайте правила русских шашек, а потом — чем от них отличаются башни. У каждого правила есть маленькая доска: нажмите «Показать», чтобы увидеть ход, или сделайте ход сами.
rules-contents = Игры
rules-russian-heading = Русские шашки
rules-bashni-heading = Башни
rules-russian-intro = На доске 8 × 8 полей, играют только на 32 тёмных. Тёмное угловое поле a1 находится слева от белых. У каждой стороны в начале 12 простых шашек на тёмных полях трёх ближних горизонталей: у белых на 1–3-й, у чёрных на 6–8-й. Первый ход делают белые, дальше ходят по очереди.
rules-bashni-intro = В башнях та же доска и та же начальная расстановка, что и в русских шашках, и ходят так же: простые шашки и дамки, бить обязательно, из нескольких взятий можно выбрать любое, шашка, дошедшая во время взятия до последней горизонтали, становится дамкой. Отличие одно: побитые шашки никогда не уходят с доски — они попадают в плен.
rules-show = Показать
rules-again = Сначала
rules-try = Нажмите «Показать» или сделайте ход сами.
# $rule: название правила.
rules-board-label = Доска к правилу «{ $rule }»
rules-played = Сыгран ход { $move }.
# $winner: white или black.
rules-outcome-win = { $winner ->
    [white] У чёрных нет хода: белые выиграли.
   *[black] У белых нет хода: чёрные выиграли.
}
rules-draws-heading = Ничья

rules-man-moves-title = Как ходит простая шашка
rules-man-moves-text = Простая шашка ходит на одно поле по диагонали вперёд, на свободное поле. Здесь белые играют c3-d4.
rules-crowning-title = Шашка становится дамкой
rules-crowning-text = Простая шашка, дошедшая до последней горизонтали (у белых — 8-й, у чёрных — 1-й), становится дамкой. Если она дошла туда тихим ходом, ход на этом заканчивается. Здесь после c7-d8 у белых появляется дамка.
rules-king-moves-title = Как ходит дамка
rules-king-moves-text = Дамка ходит по диагонали вперёд и назад на любое число свободных полей. Перепрыгивать через свои шашки она не может. Здесь дамка за один ход проходит с c1 на h6.
rules-capture-compulsory-title = Бить обязательно
rules-capture-compulsory-text = Простая шашка бьёт шашку противника, стоящую рядом по диагонали, если поле за ней свободно: она перепрыгивает на это поле, а побитая шашка снимается с доски. Если можно бить, бить обязательно. Если взятий несколько, можно выбрать любое, сколько бы шашек оно ни брало. Здесь белые могли бы взять две шашки (e3:g5:e7), но выбирают e3:c5 и берут одну; тихий ход a1-b2 сейчас сделать нельзя.
rules-capture-backwards-title = Простая шашка бьёт и назад
rules-capture-backwards-text = Ходит простая шашка только вперёд, а бьёт и вперёд, и назад. Здесь шашка e5 бьёт d4 назад: e5:c3.
rules-capture-several-title = Несколько шашек за один ход
rules-capture-several-text = Если после взятия шашка может бить дальше, она обязана продолжать в тот же ход, при необходимости меняя направление, пока бить больше нечего. Остановиться на полпути нельзя. Здесь ходом c1:e3:g5:e7 белые берут три шашки.
rules-king-captures-title = Как бьёт дамка
rules-king-captures-text = Дамка бьёт шашку противника на любом расстоянии по диагонали, если за ней есть свободное поле, и может встать на любое свободное поле за ней. Но если с некоторых из этих полей можно бить дальше, она обязана встать на одно из них и продолжить взятие. Здесь дамка бьёт d4, должна остановиться на f6 и затем бьёт g5: a1:f6:h4.
rules-turkish-strike-title = «Турецкий удар»
rules-turkish-strike-text = Побитые шашки снимают с доски только после того, как взятие закончено. До этого они стоят на своих местах: дважды бить одну шашку нельзя, и они загораживают дорогу. Здесь дамка берёт четыре шашки, e1:a5:d8:f6:d4, и должна остановиться на d4: шашка c3 уже побита, а c5 бить нельзя, потому что за ней ещё стоит побитая раньше шашка b6.
rules-crowned-in-capture-title = Дамка во время взятия
rules-crowned-in-capture-text = Простая шашка, дошедшая во время взятия до последней горизонтали, сразу становится дамкой и, если может, продолжает бить в тот же ход уже как дамка. Здесь b6:d8:h4: на d8 шашка становится дамкой и бьёт f6 издалека.
rules-russian-win-title = Как выигрывают партию
rules-russian-win-text = Вы выиграли, если у противника нет хода: все его шашки побиты или оставшиеся заперты. (Игрок может и сдаться.) Здесь после a3-b4 чёрная шашка a5 не может ни пойти, ни бить.

rules-draw-agreed-russian = Игроки договорились о ничьей. Предложить ничью можно, когда каждая сторона сделала не меньше 20 ходов.
rules-draw-repetition = Одна и та же позиция при ходе одной и той же стороны повторилась в третий раз.
rules-draw-lone-king = Три шашки или больше против одинокой дамки (например, три дамки, занявшие большую дорогу a1-h8): если сильнейшая сторона не взяла дамку своим 15-м ходом, партия заканчивается вничью.
rules-draw-big-road = Три шашки, ни одна из которых не стоит на большой дороге a1-h8, против одинокой дамки на большой дороге: ничья, если сильнейшая сторона не взяла дамку своим 5-м ходом.
rules-draw-kings-balance = У обеих сторон есть дамки, а соотношение сил не меняется (никто не бьёт и не проходит в дамки): ничья через 5 ходов, если на доске 2 или 3 шашки, через 30 ходов при 4 или 5 шашках, через 60 ходов при 6 или 7.
rules-draw-kings-only = Ходят только дамки, простые шашки не двигаются и ничего не бьётся: ничья через 15 ходов, если на доске 4 или 5 шашек, через 25 ходов при 6 или 7.
rules-draw-counting = Ходы здесь считаются у каждой стороны: 15 ходов — это 15 ходов белых и 15 ходов чёрных (а где названа сильнейшая сторона — её ходы). Счёт начинается, когда возникает такая позиция, а взятие или превращение в дамку начинает его заново. Если ход, которым кончается счёт, оставляет противника без хода, это выигрыш, а не ничья. Сайт сам считает ходы и объявляет ничью.

rules-prisoners-title = Пленники
rules-prisoners-text = Побитая шашка не снимается с доски: она встаёт под бьющую шашку как пленник. Так и растут башни. Здесь после c3:e5 чёрная шашка оказывается под белой.
rules-tower-moves-title = Башня подчиняется верхней шашке
rules-tower-moves-text = Башня — это стопка шашек на одном поле. Она принадлежит той стороне, чья шашка лежит сверху, и ходит, как эта шашка: на одно поле вперёд, если сверху простая, и на любое расстояние, если сверху дамка. Башня всегда ходит целиком, вместе с пленниками. Здесь белая башня с двумя чёрными пленниками идёт c3-d4.
rules-top-taken-title = Берут только верхнюю шашку
rules-top-taken-text = При взятии с башни снимают только верхнюю шашку. Остальные остаются на месте, и башня теперь принадлежит той стороне, чья шашка оказалась наверху: башня меняет хозяина. Здесь ходом c3:e5 белые снимают с d4 чёрную шашку; две белые шашки под ней освобождаются, и d4 снова белая башня.
rules-king-freed-title = Дамка в башне
rules-king-freed-text = Взятая в плен дамка остаётся дамкой и внизу башни, но там она ничего не решает. Освободившись, она снова ходит как дамка. Здесь белые снимают с d4 чёрную шашку, и белая дамка под ней выходит на свободу.
rules-tower-captures-several-title = Несколько пленников за один ход
rules-tower-captures-several-text = При взятии нескольких шашек каждая побитая шашка сразу, прыжок за прыжком, встаёт под бьющую башню в том порядке, в каком её взяли. Поэтому одну и ту же башню можно в этом же ходе бить снова, пока сверху у неё шашка противника, — но не сразу обратным прыжком. Здесь ходом c3:e5:c7:a5:c3:e5 белые дважды бьют d4 и берут пять пленников. В обратную сторону, c3:a5:c7:e5:c3, взятие кончается на c3: бить d4 ещё раз значило бы прыгнуть прямо назад.
rules-tower-crowning-title = Башня выходит в дамки
rules-tower-crowning-text = Когда башня доходит до последней горизонтали, дамкой становится только её верхняя шашка; шашки под ней остаются какими были. Здесь после c7-d8 верхняя шашка становится дамкой, а белая шашка под ней остаётся простой.
rules-bashni-win-title = Как выигрывают партию
rules-bashni-win-text = С доски ничего не уходит, поэтому выигрывают, взяв верхние шашки всех башен противника или заперев их: кому нечем ходить, тот проиграл. Здесь ходом c3:e5 белые берут последнюю чёрную верхнюю шашку; d4 становится белой, и чёрным больше нечем ходить.

rules-draw-agreed = Игроки договорились о ничьей.
rules-draw-repetition-towers = Одна и та же позиция (все башни со всеми их шашками, ход той же стороны) повторилась в третий раз.
rules-draw-fifteen-moves = Каждая сторона сделала 15 ходов, за которые ничего не было побито и никто не прошёл в дамки.
rules-draw-claimed = Две последние ничьи не наступают сами: ничью требует игрок, чей ход, а страница партии предлагает это, когда требование возможно.

# The first-game hint and the rules links of the other pages.
nav-rules = Правила
home-rules-title = Впервые играете?
home-rules-text = Как ходят и бьют шашки — с доской к каждому правилу.
home-rules-link = Прочитать правила
game-rules-link = { $variant ->
    [bashni] Правила игры «Башни»
   *[russian] Правила русских шашек
}
first-game-hint-title = Ваша первая партия
first-game-hint-move = Чтобы сделать ход, нажмите на свою шашку, а потом на поле, куда она должна пойти, или перетащите её туда.
first-game-hint-capture = Бить обязательно: если можно взять шашку противника, её нужно взять.
first-game-hint-dismiss = Понятно
rules-big-road-draw-title = Ничья: дамка на большой дороге
rules-big-road-draw-text = Три белые дамки не могут поймать чёрную дамку, которая держит большую дорогу a1-h8: она просто ходит по ней. Если сильнейшая сторона не взяла дамку своим 5-м ходом, партия кончается вничью (6.1.8.5). Здесь чёрные играют d4-h8.
rules-quiet-draw-title = Ничья: 15 ходов без взятий
rules-quiet-draw-text = Остались одни дамки, и никто не может побить другого. Когда каждая сторона сделала 15 ходов без взятий и без превращения в дамку, игрок, чей ход, может потребовать ничью (1.13). Здесь белые играют c1-h6 — один из таких тихих ходов.

## Тренажёр задач (`/puzzles`) и задача дня на главной странице.
nav-puzzles = Задачи
home-daily-puzzle = Задача дня
home-daily-puzzle-alt = Задача дня: { $variant }
home-puzzles-link = Решать ещё задачи
puzzles-page-title = Задачи · Башни
puzzles-heading = Задачи
puzzles-board-label = Доска задачи
puzzles-find-white = Найдите лучший ход за белых
puzzles-find-black = Найдите лучший ход за чёрных
puzzles-no-move-there = Туда хода нет.
puzzles-move-unknown = Ход { $move } здесь сделать нельзя.
puzzles-right-go-on = Верно! Продолжайте.
puzzles-solved = Решено!
puzzles-wrong = { $move } — не тот ход.
puzzles-gave-up = Решение:
puzzles-solution = Решение: { $line }
puzzles-show-solution = Показать решение
puzzles-next = Следующая задача
puzzles-another = Другая задача
puzzles-none-left = Задач этой игры и темы больше нет.
puzzles-your-rating = Ваш рейтинг в задачах: { $rating }
puzzles-about = { $variant }, рейтинг задачи { $rating }. Темы: { $themes }
puzzles-game = Игра
puzzles-theme = Тема
puzzles-any-theme = Любая тема
puzzles-theme-sacrifice = Жертва
puzzles-theme-breakthrough = Прорыв в дамки
puzzles-theme-crowning-capture = Превращение при взятии
puzzles-theme-long-diagonal = Большая дорога
puzzles-theme-tables = Эндшпиль (базы)
puzzles-theme-frees-prisoners = Освобождение пленных
puzzles-theme-captures-king = Взятие дамки
puzzles-theme-tower-changes-hands = Башня меняет хозяина
